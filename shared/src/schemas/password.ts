import { z } from 'zod';
import { isCommonPassword } from '../common-passwords.js';
import { MESSAGES } from '../messages.js';
import { textProblem } from './common.js';

/**
 * The staff password policy: administrators and judges (docs/design.md section 5) sign in with a
 * password, participants have none (docs/spec.md section 5). The rules, in the spirit of NIST SP 800-63B
 * (length and a blocklist, no composition rules, so a passphrase is the easy way to comply):
 * - at least {@link PASSWORD_MIN_LENGTH} characters, not counting spaces at either end; a passphrase
 *   of a few words separated by spaces ('sol de marzo en zapopan') passes by its length;
 * - at most {@link PASSWORD_MAX_LENGTH} characters (the bound the old schema had);
 * - not the username, nor containing it when the username has 4 characters or more (case ignored);
 * - not a common password (`common-passwords.ts`, case ignored, after trimming);
 * - printable: no control characters and no lone surrogates (these would hash differently from what
 *   the login form can type back).
 * The login schema does not apply it: existing passwords must keep signing in.
 */

/** Fewest characters of a staff password (spaces at either end do not count). */
export const PASSWORD_MIN_LENGTH = 10;
/** Most characters of a password. */
export const PASSWORD_MAX_LENGTH = 200;
/** A username this long or longer may not appear inside the password. */
const USERNAME_INSIDE_MIN_LENGTH = 4;

/** The Spanish messages of the password policy. */
export const PASSWORD_MESSAGES = {
  tooShort: `La contraseña debe tener al menos ${PASSWORD_MIN_LENGTH} caracteres (puede ser una frase de varias palabras)`,
  tooLong: `La contraseña no puede tener más de ${PASSWORD_MAX_LENGTH} caracteres`,
  sameAsUsername: 'La contraseña no puede ser el nombre de usuario',
  containsUsername: 'La contraseña no puede contener el nombre de usuario',
  common: 'Esa contraseña es demasiado común; elija otra más difícil de adivinar',
  invalidCharacters: 'La contraseña contiene caracteres no permitidos (de control o no válidos)',
} as const;

/**
 * Why `password` is not acceptable for a staff account, as the Spanish message to show under the
 * Password field, or null when it is fine. `username`, when given, may not be the password nor (with
 * 4 characters or more) appear inside it, ignoring case. Pure: the shared user schemas, the web form
 * and the server's check of `ADMIN_PASSWORD` call it.
 */
export function passwordProblem(password: string, username?: string): string | null {
  const trimmed = password.trim();
  if (trimmed === '') return MESSAGES.required;
  if (textProblem(password)) return PASSWORD_MESSAGES.invalidCharacters;
  if (password.length > PASSWORD_MAX_LENGTH) return PASSWORD_MESSAGES.tooLong;
  const lower = trimmed.normalize('NFC').toLowerCase();
  const name = (username ?? '').normalize('NFC').trim().toLowerCase();
  if (name !== '' && lower === name) return PASSWORD_MESSAGES.sameAsUsername;
  if ([...trimmed].length < PASSWORD_MIN_LENGTH) return PASSWORD_MESSAGES.tooShort;
  if (name.length >= USERNAME_INSIDE_MIN_LENGTH && lower.includes(name))
    return PASSWORD_MESSAGES.containsUsername;
  if (isCommonPassword(trimmed)) return PASSWORD_MESSAGES.common;
  return null;
}

/**
 * A new password checked by {@link passwordProblem} without a username (the user schemas add the
 * username rule at object level). Missing answers 'Este campo es requerido'.
 */
export const newPasswordSchema = z.string({ error: MESSAGES.required }).superRefine((password, ctx) => {
  const problem = passwordProblem(password);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, input: password });
});

/**
 * Adds {@link passwordProblem}'s issue, if any, on `path` (default `password`, the form field) of an
 * object refinement: for schemas whose password rule needs another field, like the username.
 */
export function addPasswordIssue(
  ctx: z.RefinementCtx,
  password: string,
  username?: string,
  path: PropertyKey[] = ['password'],
): void {
  const problem = passwordProblem(password, username);
  if (problem) ctx.addIssue({ code: 'custom', path, message: problem, input: password });
}
