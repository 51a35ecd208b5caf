import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages.js';
import { departamentTypeSchema, isoDateSchema, requiredIdSchema, schoolInputSchema } from './catalogs.js';
import {
  INPUT_MESSAGES,
  idParamsSchema,
  idSchema,
  integerSchema,
  printableText,
  requiredText,
  textProblem,
  withoutUnprintable,
} from './common.js';
import { exerciseFieldsSchema, memberInputSchema, semesterSchema, teamUpdateSchema } from './teams.js';

/** The messages of a failed parse, or null when it passed. */
function messagesOf(result: { success: boolean; error?: { issues: Array<{ message: string }> } }) {
  return result.success ? null : result.error!.issues.map((issue) => issue.message);
}

describe('strict integers', () => {
  it('accept a JSON integer and a canonical digit string (path params, multipart fields, selects)', () => {
    expect(idSchema.parse(7)).toBe(7);
    expect(idSchema.parse('7')).toBe(7);
    expect(idSchema.parse('007')).toBe(7);
    expect(idSchema.parse(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
    expect(idSchema.parse(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(idParamsSchema.parse({ id: '42' })).toEqual({ id: 42 });
  });

  it.each([
    ['a boolean', true],
    ['false', false],
    ['hex', '0x10'],
    ['an exponent', '1e3'],
    ['a float', 1.5],
    ['a float string', '1.5'],
    ['a float string ending in .0', '1.0'],
    ['spaces', ' 7 '],
    ['a sign', '+7'],
    ['a negative string', '-7'],
    ['an array', [5]],
    ['an object', { id: 5 }],
    ['Infinity', Infinity],
    ['NaN', Number.NaN],
    ['Arabic-Indic digits', '٧'],
    ['binary', '0b101'],
  ])('refuse %s with a Spanish message', (_what, value) => {
    const messages = messagesOf(idSchema.safeParse(value));
    expect(messages).not.toBeNull();
    expect(messages!.join(' ')).toMatch(/número entero|fuera de rango/);
  });

  it("answers 'Este campo es requerido' for missing, null, '' and 0 of a required id", () => {
    for (const value of [undefined, null, '', 0, '0']) {
      expect(messagesOf(requiredIdSchema.safeParse(value))).toEqual([MESSAGES.required]);
    }
    expect(
      messagesOf(teamUpdateSchema.safeParse({ name: 'Los Recursivos', levels_id: '', coaches_id: 2 })),
    ).toEqual([
      MESSAGES.required, // id
      MESSAGES.required, // levels_id
    ]);
  });

  it('refuses beyond the safe-integer range', () => {
    expect(messagesOf(idSchema.safeParse('9007199254740993'))).toEqual([INPUT_MESSAGES.outOfRange]);
    expect(messagesOf(idSchema.safeParse(2 ** 60))).toEqual([INPUT_MESSAGES.outOfRange]);
    expect(messagesOf(idSchema.safeParse('9'.repeat(400)))).toEqual([INPUT_MESSAGES.outOfRange]);
  });

  it('applies the bounds and messages of each field', () => {
    const percent = integerSchema({ min: 0, max: 100 });
    expect(percent.parse('0')).toBe(0);
    expect(messagesOf(percent.safeParse(101))).toEqual([INPUT_MESSAGES.outOfRange]);
    expect(departamentTypeSchema.parse('0')).toBe(0);
    expect(departamentTypeSchema.parse(1)).toBe(1);
    expect(messagesOf(departamentTypeSchema.safeParse(2))).toEqual(['Seleccione Interno o Externo']);
    expect(messagesOf(departamentTypeSchema.safeParse(true))).toEqual(['Seleccione Interno o Externo']);
    expect(messagesOf(departamentTypeSchema.safeParse(''))).toEqual([MESSAGES.required]);
    // The semester reuses the career's message for every problem (docs/spec.md section 5).
    expect(semesterSchema.parse('10')).toBe(10);
    for (const value of ['', '11', '0', true, '0x1', 2.5]) {
      expect(messagesOf(semesterSchema.safeParse(value))).toEqual([MESSAGES.required]);
    }
  });

  it('keeps strings out of an optional field only when absent', () => {
    expect(exerciseFieldsSchema.parse({ levels_id: '2' })).toEqual({ levels_id: 2 });
    expect(exerciseFieldsSchema.parse({ levels_id: '2', contests_id: '3' })).toEqual({
      levels_id: 2,
      contests_id: 3,
    });
    expect(exerciseFieldsSchema.safeParse({ levels_id: '0x2' }).success).toBe(false);
    expect(exerciseFieldsSchema.safeParse({ levels_id: '2', contests_id: 'true' }).success).toBe(false);
  });
});

describe('printable texts', () => {
  it('finds control characters (C0, DEL, C1) and lone surrogates', () => {
    for (const text of [
      'a\u0000b',
      'a\u0007',
      '\u001fx',
      'x\u007f',
      'x\u0085y',
      'x\u009f',
      'dos\nlíneas',
      'tab\tulador',
    ]) {
      expect(textProblem(text)).toBe(INPUT_MESSAGES.controlCharacters);
    }
    for (const text of ['a\ud800', '\udc00b', 'x\udbff\u0041']) {
      expect(textProblem(text)).toBe(INPUT_MESSAGES.invalidCharacters);
    }
    for (const text of [
      'Ana López',
      'Ingeniería en Computación',
      'Equipo 🚀',
      '日本語',
      'O’Brien',
      'Ñandú — ü',
      'Equipo 👩‍💻',
      'Los 👨‍👩‍👧',
      'Escocia 🏴󠁧󠁢󠁳󠁣󠁴󠁿',
      'عربي', // right-to-left text itself is fine; only the invisible marks are refused
    ]) {
      expect(textProblem(text)).toBeNull();
    }
  });

  it('finds invisible format characters: bidi controls and zero-width marks', () => {
    for (const text of [
      'Equipo\u202Eexe.fdp', // the probe: shows as "Equipopdf.exe"
      'a\u202Ab',
      'a\u202Db',
      'x\u2066y\u2069',
      'x\u200Ey',
      'x\u200Fy',
      'x\u061Cy',
      'Equi\u200Bpo',
      'Equi\u200Cpo',
      'Equi\u200Dpo', // a joiner outside an emoji sequence
      'Equi\u2060po',
      '\uFEFFEquipo',
      'a\u00ADb',
    ]) {
      expect(textProblem(text), JSON.stringify(text)).toBe(INPUT_MESSAGES.formatCharacters);
    }
    expect(messagesOf(requiredText().safeParse('Equipo\u202Eexe.fdp'))).toEqual([
      INPUT_MESSAGES.formatCharacters,
    ]);
  });

  it('takes out what it refuses, keeping emoji sequences whole (the agent names files so)', () => {
    expect(withoutUnprintable(' Equipo\u202Eexe.fdp\u0000\ud800 ')).toBe('Equipoexe.fdp');
    expect(withoutUnprintable('Los 👨‍👩‍👧\u200B 🏴󠁧󠁢󠁳󠁣󠁴󠁿')).toBe('Los 👨‍👩‍👧 🏴󠁧󠁢󠁳󠁣󠁴󠁿');
    for (const text of ['Equi\u200Dpo', 'x\u2066y\u2069', '\uFEFFa']) {
      expect(textProblem(withoutUnprintable(text))).toBeNull();
    }
  });

  it('trims, requires and refuses unprintable names with a Spanish message', () => {
    expect(requiredText().parse('  Facultad de Ciencias \n')).toBe('Facultad de Ciencias');
    expect(messagesOf(requiredText().safeParse('   '))).toEqual([MESSAGES.required]);
    expect(messagesOf(requiredText().safeParse(undefined))).toEqual([MESSAGES.required]);
    expect(messagesOf(requiredText().safeParse(12))).toEqual([INPUT_MESSAGES.notText]);
    expect(messagesOf(schoolInputSchema.safeParse({ name: 'CU\u0000CEI' }))).toEqual([
      INPUT_MESSAGES.controlCharacters,
    ]);
    expect(messagesOf(schoolInputSchema.safeParse({ name: 'CUCEI\ud800' }))).toEqual([
      INPUT_MESSAGES.invalidCharacters,
    ]);
    expect(
      messagesOf(
        memberInputSchema.safeParse({
          code: '2150\u009b',
          name: 'Ana',
          semester: 3,
          teams_id: 1,
          careers_id: 1,
        }),
      ),
    ).toEqual([INPUT_MESSAGES.controlCharacters]);
  });

  it('keeps the existing max lengths', () => {
    expect(requiredText(5).safeParse('123456').success).toBe(false);
    expect(requiredText(5).parse(' 12345 ')).toBe('12345');
    expect(messagesOf(printableText(3).safeParse('abcd'))).toEqual(['Máximo 3 caracteres']);
    expect(printableText(3).parse('')).toBe('');
  });
});

describe('dates', () => {
  it('accepts real calendar dates in the years a DATE column holds', () => {
    expect(isoDateSchema.parse('2026-11-21')).toBe('2026-11-21');
    expect(isoDateSchema.parse('2028-02-29')).toBe('2028-02-29');
    for (const value of ['0000-01-01', '0999-12-31', '2027-02-29', '2026-13-01', '21-11-2026', 20261121]) {
      expect(isoDateSchema.safeParse(value).success).toBe(false);
    }
    expect(messagesOf(isoDateSchema.safeParse(undefined))).toEqual([MESSAGES.required]);
  });
});
