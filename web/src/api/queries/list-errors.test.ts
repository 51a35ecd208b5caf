import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../api-error';
import { ListWarning, describeListError, listRows } from './list-errors';

describe('listRows', () => {
  it('answers the rows of a list answer', () => {
    expect(listRows({ success: true, data: [{ id: 1 }], message: '' })).toEqual([{ id: 1 }]);
  });

  it('turns a success-false answer into a warning with the server message (docs/spec.md section 8)', () => {
    expect(() => listRows({ success: false, data: [], message: 'No hay concursos' })).toThrow(ListWarning);
  });
});

describe('describeListError (docs/spec.md section 8)', () => {
  it('shows a success-false answer as Advertencia with the server message', () => {
    expect(describeListError(new ListWarning('No hay concursos'))).toEqual({
      title: 'Advertencia',
      message: 'No hay concursos',
    });
  });

  it('shows an HTTP error as Error with the server message, or the generic text', () => {
    expect(
      describeListError(new ApiRequestError({ kind: 'http', status: 403, serverMessage: 'Sin permiso' })),
    ).toEqual({ title: 'Error', message: 'Sin permiso' });
    expect(describeListError(new ApiRequestError({ kind: 'http', status: 502 }))).toEqual({
      title: 'Error',
      message: 'Algo salió mal en el servidor.',
    });
  });

  it('shows no answer as Error de Conexión', () => {
    expect(describeListError(new ApiRequestError({ kind: 'network', status: 0 }))).toEqual({
      title: 'Error de Conexión',
      message: 'No se pudo conectar al servidor. Inténtalo de nuevo más tarde.',
    });
  });
});
