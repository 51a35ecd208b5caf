import { z } from 'zod';
import { MESSAGES } from '../messages.js';

/**
 * The building blocks every input schema uses (strict input typing). Bad input gets a clear
 * Spanish error and changes nothing (docs/design.md section 8); a required field that is missing or empty
 * answers 'Este campo es requerido' (docs/spec.md section 5).
 */

/** The Spanish messages of the strict integer and text rules. */
export const INPUT_MESSAGES = {
  notInteger: 'Debe ser un número entero',
  outOfRange: 'Número fuera de rango',
  notText: 'Debe ser un texto',
  controlCharacters: 'No se permiten caracteres de control (saltos de línea, tabuladores u otros invisibles)',
  invalidCharacters: 'Contiene caracteres no válidos',
  formatCharacters:
    'No se permiten caracteres invisibles de formato (marcas de dirección del texto o de ancho cero)',
} as const;

// C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F): never part of a name, invisible in the
// tables and the exports, and a NUL cuts strings short in other tools.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
// With the `u` flag a surrogate matches only when it is unpaired: such a string has no UTF-8 form,
// so the database would store U+FFFD instead of what was sent.
const LONE_SURROGATE = /\p{Cs}/u;
// Invisible format characters (Unicode category Cf): bidi embeddings, overrides, isolates
// and marks (`Equipo\u202Eexe.fdp` shows as `Equipopdf.exe`), zero-width spaces and joiners, the BOM.
// They change what a judge reads without showing themselves. The one legitimate use in a name is an
// emoji sequence (a zero-width joiner between two pictographs, 👩‍💻; the tag characters of a flag,
// 🏴󠁧󠁢󠁳󠁣󠁴󠁿), which is taken out before looking.
const FORMAT_CHARACTER = /\p{Cf}/u;
const EMOJI_FORMAT_SEQUENCE =
  /(?<=\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic})|\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;

/**
 * Why `text` is not printable (the Spanish message), or null when it is: no control characters (C0,
 * DEL, C1), no lone surrogates and no invisible format characters outside emoji sequences
 * (invisible, they change what a judge reads). Pure, for the schemas and the password policy.
 */
export function textProblem(text: string): string | null {
  if (CONTROL_CHARACTER.test(text)) return INPUT_MESSAGES.controlCharacters;
  if (LONE_SURROGATE.test(text)) return INPUT_MESSAGES.invalidCharacters;
  if (FORMAT_CHARACTER.test(text.replace(EMOJI_FORMAT_SEQUENCE, ''))) return INPUT_MESSAGES.formatCharacters;
  return null;
}

// An emoji sequence's own format characters (kept) or any other format character (group 1: dropped).
const FORMAT_OUTSIDE_EMOJI = new RegExp(`${EMOJI_FORMAT_SEQUENCE.source}|(\\p{Cf})`, 'gu');

/**
 * `text` with what {@link textProblem} refuses taken out (control characters, lone surrogates,
 * invisible format characters outside emoji sequences), trimmed: how the agent names a file whose
 * name the server would refuse, so its report is not refused whole.
 */
export function withoutUnprintable(text: string): string {
  return text
    .replace(new RegExp(`${CONTROL_CHARACTER.source}|${LONE_SURROGATE.source}`, 'gu'), '')
    .replace(FORMAT_OUTSIDE_EMOJI, (match: string, format?: string) => (format ? '' : match))
    .trim();
}

/** Adds the printable-text issue of `value`, if any, to a refinement. */
function checkPrintable(value: string, ctx: z.RefinementCtx) {
  const problem = textProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
}

/**
 * An optional trimmed printable text of at most `max` characters (free texts the spec does not
 * require, e.g. an agent's host name).
 */
export const printableText = (max = 255) =>
  z
    .string({ error: INPUT_MESSAGES.notText })
    .trim()
    .max(max, { error: `Máximo ${max} caracteres` })
    .superRefine(checkPrintable);

/**
 * A required trimmed printable text: empty or missing answers 'Este campo es requerido' (docs/spec.md
 * section 5); control characters and lone surrogates are refused with a Spanish message. `max` is the
 * column length (bytes are not counted: utf8mb4 columns count characters).
 */
export const requiredText = (max = 255) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null ? MESSAGES.required : INPUT_MESSAGES.notText,
    })
    .trim()
    .min(1, { error: MESSAGES.required })
    .max(max, { error: `Máximo ${max} caracteres` })
    .superRefine(checkPrintable);

/** Bounds and messages of {@link integerSchema}. */
export interface IntegerRule {
  /** Smallest value accepted (default 1). */
  min?: number;
  /** Largest value accepted (default `Number.MAX_SAFE_INTEGER`). */
  max?: number;
  /** Message of a value below `min` (default 'Número fuera de rango'). */
  tooSmall?: string;
  /** Message of a value above `max` or beyond the safe-integer range (default 'Número fuera de rango'). */
  outOfRange?: string;
  /** Message of anything that is not an integer (default 'Debe ser un número entero'). */
  notInteger?: string;
}

/** Canonical decimal digits: what a path parameter, a multipart field or an HTML select carries. */
const DIGITS = /^[0-9]+$/;

/**
 * A strict integer: a JSON integer, or a canonical decimal string (`^[0-9]+$`, for path parameters,
 * multipart fields and the web's selects, whose values are strings) within the safe-integer range.
 * Booleans, hex (`0x10`), exponents (`1e3`), floats, spaces, signs and arrays are refused, where
 * `z.coerce.number` read `true` as 1 and `"0x10"` as 16. Missing, null or `''` answers
 * 'Este campo es requerido' (docs/spec.md section 5); a field that may be absent adds `.optional()`.
 */
export function integerSchema(rule: IntegerRule = {}) {
  const min = rule.min ?? 1;
  const max = rule.max ?? Number.MAX_SAFE_INTEGER;
  const outOfRange = rule.outOfRange ?? INPUT_MESSAGES.outOfRange;
  const tooSmall = rule.tooSmall ?? outOfRange;
  const notInteger = rule.notInteger ?? INPUT_MESSAGES.notInteger;
  const missing = (input: unknown) => input === undefined || input === null || input === '';
  return z
    .union([z.number(), z.string()], {
      error: (issue) => (missing(issue.input) ? MESSAGES.required : notInteger),
    })
    .transform((value, ctx) => {
      if (typeof value === 'string') {
        if (value === '') {
          ctx.addIssue({ code: 'custom', message: MESSAGES.required, input: value });
          return z.NEVER;
        }
        if (!DIGITS.test(value)) {
          ctx.addIssue({ code: 'custom', message: notInteger, input: value });
          return z.NEVER;
        }
      }
      const number = Number(value);
      // A digit string is an integer, perhaps beyond the safe range (then Infinity): out of range.
      if (typeof value === 'number' && !Number.isInteger(number)) {
        ctx.addIssue({ code: 'custom', message: notInteger, input: value });
        return z.NEVER;
      }
      if (!Number.isSafeInteger(number) || number < min || number > max) {
        const message = Number.isSafeInteger(number) && number < min ? tooSmall : outOfRange;
        ctx.addIssue({ code: 'custom', message, input: value });
        return z.NEVER;
      }
      return number;
    });
}

/**
 * A positive integer id from a path or a body (a JSON integer or a canonical digit string); missing,
 * empty or 0 (a select with nothing chosen) answers 'Este campo es requerido'.
 */
export const idSchema = integerSchema({ min: 1, tooSmall: MESSAGES.required });

/** `{ id }` path parameters of `get .../{id}` routes. */
export const idParamsSchema = z.object({ id: idSchema });
export type IdParams = z.infer<typeof idParamsSchema>;

/** An integer as the server answers it (answer schemas only: user input goes through `integerSchema`). */
export const rowIntSchema = z.number().int();

/**
 * A referenced row embedded in an answer with its label (docs/spec.md section 3 embeds names):
 * `embeddedRowSchema('name')` is `{ id: number, name: string }`.
 */
export function embeddedRowSchema<K extends string>(label: K) {
  return z.object({ id: rowIntSchema, [label]: z.string() } as { id: typeof rowIntSchema } & {
    [P in K]: z.ZodString;
  });
}
