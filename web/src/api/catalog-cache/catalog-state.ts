/**
 * Pure rules of the catalogue lists: which lists a `catalog.changed` event makes stale, and how a failed
 * list load is told to the user (SPEC.md section 8). Free of React, zustand and sockets.
 */
import { MESSAGES, type BoardTeam, type CatalogName, type TeamRow } from '@concurso/shared';
import { LIST_CATALOGS, LIST_SOURCES, type ListCatalog } from '../catalog-api';
import { isApiRequestError } from '../api-error';

/**
 * Catalogues whose rows embed another catalogue's names: a change of the key refreshes them too
 * (departaments show their school's name, careers their departament's, a contest's blocked set its
 * processes' names, teams their coach, level and contest, exercises their level and contest, members
 * their career).
 */
export const CATALOG_DEPENDENTS: Partial<Record<CatalogName, readonly CatalogName[]>> = {
  schools: ['departaments'],
  departaments: ['careers'],
  careers: ['members'],
  coaches: ['teams'],
  levels: ['teams', 'exercises'],
  processes: ['contest_processes'],
  contests: ['contest_processes', 'teams', 'exercises'],
  teams: ['members'],
};

/** The catalogues a change of `changed` makes stale: itself and the ones embedding its names. */
export function staleCatalogs(changed: CatalogName): CatalogName[] {
  return [changed, ...(CATALOG_DEPENDENTS[changed] ?? [])];
}

/** The lists in the store that a `catalog.changed` of `name` makes stale (`users` has three). */
export function listCatalogsOf(name: CatalogName): ListCatalog[] {
  return LIST_CATALOGS.filter((list) => LIST_SOURCES[list] === name);
}

/**
 * The teams list after a live board row (`team.updated`): a block or unblock by a judge changes
 * ESTATUS without a `catalog.changed`. Answers the same array when the status did not change (an
 * agent's attempt), so the table does not re-render for every attempt.
 */
export function patchTeamRows(rows: TeamRow[], team: BoardTeam): TeamRow[] {
  const index = rows.findIndex((row) => row.id === team.id);
  const row = index >= 0 ? rows[index] : undefined;
  if (!row) return rows;
  if (row.status_team.id === team.status_team.id && row.status_team.status === team.status_team.status) {
    return rows;
  }
  const next = rows.slice();
  next[index] = { ...row, status_team: { id: team.status_team.id, status: team.status_team.status } };
  return next;
}

/** A list answer with `success: false`: the server's warning ('Advertencia'). */
export class ListWarning extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListWarning';
  }
}

/**
 * The shape every list answer shares (SPEC.md section 7). The map declares `success: true`; SPEC.md
 * section 8 still has the web tell a `success: false` answer as a warning, so it is read as a boolean.
 */
export interface ListEnvelope<T> {
  success: boolean;
  data: readonly T[];
  message: string;
}

/** The rows of a list answer; one with `success: false` throws a {@link ListWarning} with its message. */
export function listRows<T>(answer: ListEnvelope<T>): T[] {
  if (answer.success === false) throw new ListWarning(answer.message);
  return Array.isArray(answer.data) ? [...answer.data] : [];
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
