import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../api/api-error';
import { ListWarning, describeListError, isListCatalog, staleCatalogs } from './catalog-state';

describe('staleCatalogs', () => {
  it('refreshes the lists that embed the changed catalogue’s names', () => {
    expect(staleCatalogs('schools')).toEqual(['schools', 'departaments']);
    expect(staleCatalogs('departaments')).toEqual(['departaments', 'careers']);
    expect(staleCatalogs('processes')).toEqual(['processes', 'contest_processes']);
    expect(staleCatalogs('coaches')).toEqual(['coaches']);
  });

  it('knows which catalogues have a list', () => {
    expect(isListCatalog('careers')).toBe(true);
    expect(isListCatalog('contest_processes')).toBe(false);
    expect(isListCatalog('teams')).toBe(false);
  });
});

describe('describeListError (SPEC.md section 8)', () => {
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
