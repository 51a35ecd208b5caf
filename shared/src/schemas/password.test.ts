import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORDS, COMMON_PASSWORD_WORDS, isCommonPassword } from '../common-passwords.js';
import { USER_TYPES } from '../constants.js';
import { MESSAGES } from '../messages.js';
import { loginSchema } from './auth.js';
import { PASSWORD_MESSAGES, newPasswordSchema, passwordProblem } from './password.js';
import { userFieldsSchema, userInputSchema, userUpdateSchema } from './teams.js';

/** Each field's messages of a failed parse. */
function fieldErrors(result: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
}) {
  const errors: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) (errors[issue.path.join('.')] ??= []).push(issue.message);
  return errors;
}

describe('passwordProblem', () => {
  it('accepts long passwords and passphrases', () => {
    for (const password of [
      'sol de marzo en zapopan',
      'Tr3s-tristes-tigres',
      'juez-secreto-1',
      'correct horse battery staple',
      'Ñandú-bajo-la-lluvia',
      'x7#Lq9!vZp',
    ]) {
      expect(passwordProblem(password, 'rsalas')).toBeNull();
    }
  });

  it('refuses short ones, counting neither the spaces around nor UTF-16 halves', () => {
    expect(passwordProblem('12345678')).toBe(PASSWORD_MESSAGES.tooShort);
    expect(passwordProblem('password')).toBe(PASSWORD_MESSAGES.tooShort);
    expect(passwordProblem('   corta9x   ')).toBe(PASSWORD_MESSAGES.tooShort);
    expect(passwordProblem('🚀🚀🚀🚀🚀x')).toBe(PASSWORD_MESSAGES.tooShort);
    expect(passwordProblem('')).toBe(MESSAGES.required);
    expect(passwordProblem('          ')).toBe(MESSAGES.required);
    expect(passwordProblem('a'.repeat(150) + 'b'.repeat(51))).toBe(PASSWORD_MESSAGES.tooLong);
  });

  it('refuses the username, and containing it when it has 4 characters or more, ignoring case', () => {
    expect(passwordProblem('rsalas', 'rsalas')).toBe(PASSWORD_MESSAGES.sameAsUsername);
    expect(passwordProblem('Juez_Principal', 'juez_principal')).toBe(PASSWORD_MESSAGES.sameAsUsername);
    expect(passwordProblem('mi-clave-RSALAS-2026', 'rsalas')).toBe(PASSWORD_MESSAGES.containsUsername);
    expect(passwordProblem('temporal-123', 'temporal')).toBe(PASSWORD_MESSAGES.containsUsername);
    // A 3-letter username may appear by chance inside a good password.
    expect(passwordProblem('la-ana-del-laboratorio', 'ana')).toBeNull();
    expect(passwordProblem('juez-secreto-1')).toBeNull();
  });

  it('refuses common passwords, trimmed and ignoring case', () => {
    for (const password of [
      '1234567890',
      'qwertyuiop',
      'Password123',
      'contraseña123',
      'CONTRASEÑA123',
      'contrasen\u0303a123', // ñ typed as n + combining tilde
      'administrador',
      'Concurso2026',
      '  concurso2026  ',
      'Concurso-2027!',
      'p@ssw0rd2026',
      '2026administrador',
      'aaaaaaaaaaaa',
      'abababababab',
      '7890123456',
      'zyxwvutsrqpo',
    ]) {
      expect([password, passwordProblem(password)]).toEqual([password, PASSWORD_MESSAGES.common]);
    }
  });

  it('refuses control characters and lone surrogates', () => {
    expect(passwordProblem('clave\u0000muy-larga')).toBe(PASSWORD_MESSAGES.invalidCharacters);
    expect(passwordProblem('clave-muy-larga\ud800')).toBe(PASSWORD_MESSAGES.invalidCharacters);
  });

  it('ships a clean list: lowercase, trimmed, unique, 10 characters or more', () => {
    expect(COMMON_PASSWORDS.length).toBeGreaterThan(300);
    expect(new Set(COMMON_PASSWORDS).size).toBe(COMMON_PASSWORDS.length);
    for (const entry of COMMON_PASSWORDS) {
      expect([entry, entry === entry.trim().toLowerCase().normalize('NFC'), [...entry].length >= 10]).toEqual(
        [entry, true, true],
      );
      expect(isCommonPassword(entry)).toBe(true);
    }
    for (const word of COMMON_PASSWORD_WORDS) expect(word).toMatch(/^\p{Ll}+$/u);
  });

  it('newPasswordSchema applies the policy to a lone field', () => {
    expect(newPasswordSchema.parse('sol de marzo en zapopan')).toBe('sol de marzo en zapopan');
    expect(fieldErrors(newPasswordSchema.safeParse('12345678'))).toEqual({
      '': [PASSWORD_MESSAGES.tooShort],
    });
    expect(fieldErrors(newPasswordSchema.safeParse(undefined))).toEqual({ '': [MESSAGES.required] });
  });
});

describe('user schemas apply the policy to staff (admin, judge), not to participants', () => {
  const user = { name: 'Mtro. Ricardo Salas', username: 'rsalas', types_users_id: USER_TYPES.judge };

  it('refuses weak staff passwords on the password field', () => {
    for (const [password, message] of [
      ['12345678', PASSWORD_MESSAGES.tooShort],
      ['password', PASSWORD_MESSAGES.tooShort],
      ['rsalas', PASSWORD_MESSAGES.sameAsUsername],
      ['RSalas-2026-lab', PASSWORD_MESSAGES.containsUsername],
      ['password123', PASSWORD_MESSAGES.common],
    ] as const) {
      for (const schema of [userInputSchema, userFieldsSchema]) {
        expect(fieldErrors(schema.safeParse({ ...user, password }))).toEqual({ password: [message] });
      }
      expect(fieldErrors(userUpdateSchema.safeParse({ ...user, id: 3, password }))).toEqual({
        password: [message],
      });
      expect(
        fieldErrors(userInputSchema.safeParse({ ...user, types_users_id: USER_TYPES.admin, password })),
      ).toEqual({
        password: [message],
      });
    }
  });

  it('accepts a good one, requires one on create and keeps the current one on update', () => {
    expect(userInputSchema.parse({ ...user, password: 'juez-secreto-1' })).toEqual({
      ...user,
      password: 'juez-secreto-1',
    });
    expect(fieldErrors(userInputSchema.safeParse(user))).toEqual({ password: [MESSAGES.required] });
    expect(userUpdateSchema.parse({ ...user, id: '3', password: '' })).toEqual({
      ...user,
      id: 3,
      password: '',
    });
    expect(userUpdateSchema.parse({ ...user, id: 3 })).toEqual({ ...user, id: 3 });
  });

  it('shows the password problem next to the other fields’ problems', () => {
    expect(
      fieldErrors(userInputSchema.safeParse({ username: 'ana lópez', password: 'corta', types_users_id: 2 })),
    ).toEqual({
      name: [MESSAGES.required],
      username: ['Use solo letras, dígitos, punto, guion, guion bajo o @'],
      password: [PASSWORD_MESSAGES.tooShort],
    });
  });

  it('leaves participants alone (they have no password) and refuses strange user types', () => {
    const participant = { ...user, types_users_id: USER_TYPES.participant };
    expect(userInputSchema.safeParse(participant).success).toBe(true);
    expect(userInputSchema.safeParse({ ...participant, password: '123' }).success).toBe(true);
    for (const types_users_id of [0, 4, true, '0x2', '2.0']) {
      expect(
        fieldErrors(userInputSchema.safeParse({ ...user, password: 'juez-secreto-1', types_users_id })),
      ).toEqual({
        types_users_id: ['Tipo de usuario no válido'],
      });
    }
  });

  it('keeps the login schema unchanged: any existing password signs in', () => {
    expect(loginSchema.parse({ username: 'rsalas', password: '1234' })).toEqual({
      username: 'rsalas',
      password: '1234',
    });
  });
});
