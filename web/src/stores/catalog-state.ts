/**
 * Pure rules of the catalogue lists: which lists a `catalog.changed` event makes stale, and how a failed
 * list load is told to the user (SPEC.md section 8). Free of React, zustand and sockets.
 */
import { MESSAGES, type CatalogName } from '@concurso/shared';
import { LIST_CATALOGS, type ListCatalog } from '../api/catalog-api';
import { isApiRequestError } from '../api/api-error';

/**
 * Catalogues whose rows embed another catalogue's names: a change of the key refreshes them too
 * (departaments show their school's name, careers their departament's, a contest's blocked set its
 * processes' names).
 */
export const CATALOG_DEPENDENTS: Partial<Record<CatalogName, readonly CatalogName[]>> = {
  schools: ['departaments'],
  departaments: ['careers'],
  processes: ['contest_processes'],
  contests: ['contest_processes'],
};

/** The catalogues a change of `changed` makes stale: itself and the ones embedding its names. */
export function staleCatalogs(changed: CatalogName): CatalogName[] {
  return [changed, ...(CATALOG_DEPENDENTS[changed] ?? [])];
}

/** True for the catalogues that have a list screen (and a list in the store). */
export function isListCatalog(name: CatalogName): name is ListCatalog {
  return (LIST_CATALOGS as readonly string[]).includes(name);
}

/** A list answer with `success: false`: the server's warning ('Advertencia'). */
export class ListWarning extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListWarning';
  }
}

/** The dialog for a failed list load. */
export interface ListErrorView {
  title: string;
  message: string;
}

/**
 * SPEC.md section 8, list loads: `success` false is 'Advertencia' with the server's message; an HTTP
 * error is 'Error' with the server's message or 'Algo salió mal en el servidor.'; no answer is
 * 'Error de Conexión' with 'No se pudo conectar al servidor. Inténtalo de nuevo más tarde.'.
 */
export function describeListError(error: unknown): ListErrorView {
  if (error instanceof ListWarning) {
    return { title: MESSAGES.warning, message: error.message || MESSAGES.serverError };
  }
  if (isApiRequestError(error) && error.kind === 'network') {
    return { title: MESSAGES.connectionErrorTitle, message: MESSAGES.connectionError };
  }
  if (isApiRequestError(error)) {
    return { title: MESSAGES.error, message: error.serverMessage ?? MESSAGES.serverError };
  }
  return { title: MESSAGES.error, message: MESSAGES.serverError };
}
