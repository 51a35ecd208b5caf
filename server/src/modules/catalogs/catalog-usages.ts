import type { EntityManager } from '@mikro-orm/mysql';
import type { CatalogName } from '@concurso/shared';
import type { Use } from './in-use-message.js';

/**
 * One kind of row that points at a catalogue's rows and keeps them from being deleted (the 409 "in
 * use", docs/design.md section 4). The module that owns those rows declares it (teams: "a level of N
 * teams"), and app.ts hands every declaration to `catalogUsages`: a catalogue never imports the
 * modules above it that use it (server/src/modules/README.md, the layers).
 */
export interface CatalogUsage {
  /** The catalogue whose rows are used ('levels'). */
  catalog: CatalogName;
  /** The noun of one using row, for the message ('equipo'). */
  one: string;
  /** The noun of several ('equipos'). */
  many: string;
  /** How many rows use row `id` of the catalogue, in the caller's transaction. */
  count(em: EntityManager, id: number): Promise<number>;
}

/**
 * What uses row `id` of `catalog`: each usage declared for it counted (one query each, in turn, in
 * `em`'s transaction), in the order the declarations were handed over, which is the order of the
 * 409's message ('2 equipos y 1 ejercicio'). Nothing when no usage names the catalogue.
 */
export type CountUses = (catalog: CatalogName, em: EntityManager, id: number) => Promise<Use[]>;

/** The `CountUses` of `usages` (every module's declarations, gathered by app.ts). */
export function catalogUsages(usages: readonly CatalogUsage[]): CountUses {
  return async (catalog, em, id) => {
    const uses: Use[] = [];
    for (const usage of usages) {
      if (usage.catalog === catalog) uses.push([await usage.count(em, id), usage.one, usage.many]);
    }
    return uses;
  };
}
