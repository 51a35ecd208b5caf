import { describe, expect, it } from 'vitest';
import { issuesToFieldErrors, resolveParse } from './schema-resolver';

describe('issuesToFieldErrors', () => {
  it('nests row errors in arrays under the prefix, first message of each field', () => {
    const errors = issuesToFieldErrors(
      [
        { path: [1, 'code'], message: 'Este campo es requerido' },
        { path: [1, 'code'], message: 'otra' },
        { path: [0, 'name'], message: 'Máximo 255 caracteres' },
      ],
      ['members'],
    );
    expect(errors).toEqual({
      members: [
        { name: { type: 'validate', message: 'Máximo 255 caracteres' } },
        { code: { type: 'validate', message: 'Este campo es requerido' } },
      ],
    });
  });

  it('puts an issue without a path at root', () => {
    expect(issuesToFieldErrors([{ path: [], message: 'Agregue al menos un integrante' }])).toEqual({
      root: { type: 'validate', message: 'Agregue al menos un integrante' },
    });
  });
});

describe('resolveParse', () => {
  it('answers the parsed body, or the errors', () => {
    expect(resolveParse({ success: true, data: { a: 1 } })).toEqual({ values: { a: 1 }, errors: {} });
    expect(resolveParse({ success: false, error: { issues: [{ path: ['a'], message: 'x' }] } })).toEqual({
      values: {},
      errors: { a: { type: 'validate', message: 'x' } },
    });
  });
});
