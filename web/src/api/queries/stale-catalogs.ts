import type { CatalogName } from '@concurso/shared';

/**
 * Catalogues whose rows embed another catalogue's names: a change of the key makes them stale too
 * (departaments show their school's name, careers their departament's, a contest's blocked set its
 * processes' names, teams their coach, level and contest, exercises their level and contest, members
 * their career).
 */
const CATALOG_DEPENDENTS: Partial<Record<CatalogName, readonly CatalogName[]>> = {
  schools: ['departaments'],
  departaments: ['careers'],
  careers: ['members'],
  coaches: ['teams'],
  levels: ['teams', 'exercises'],
  processes: ['contest_processes'],
  contests: ['contest_processes', 'teams', 'exercises'],
  teams: ['members'],
};

/** The first part of every /bitacora query's key (features/history). */
export const CONTEST_LOG_KEY = 'contestLog';

/**
 * Catalogues whose changes are rows of the contest log: a judges' message and its receipts,
 * a contest's allowed sites. Board pushes refetch the log for the rest.
 */
const LOGGED_CATALOGS: ReadonlySet<CatalogName> = new Set(['messages', 'contests']);

/**
 * The queries a `catalog.changed` of `changed` makes stale, by the first element of their keys: the
 * catalogue itself, the ones embedding its names, and /bitacora's log when its rows show the change.
 */
export function staleCatalogs(changed: CatalogName): string[] {
  return [
    changed,
    ...(CATALOG_DEPENDENTS[changed] ?? []),
    ...(LOGGED_CATALOGS.has(changed) ? [CONTEST_LOG_KEY] : []),
  ];
}
