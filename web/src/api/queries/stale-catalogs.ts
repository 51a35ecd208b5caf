import type { CatalogName } from '@concurso/shared';

/**
 * Catalogues whose rows embed another catalogue's names: a change of the key makes them stale too
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

/**
 * The catalogues a `catalog.changed` of `changed` makes stale: itself and the ones embedding its names.
 * Each is the first element of the query keys it makes stale (`query-keys.ts`).
 */
export function staleCatalogs(changed: CatalogName): CatalogName[] {
  return [changed, ...(CATALOG_DEPENDENTS[changed] ?? [])];
}
