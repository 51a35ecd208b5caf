import type { MikroORM } from '@mikro-orm/mysql';
import type { LevelInput, LevelRow } from '@concurso/shared';
import { catalogRows } from '../catalogs/index.js';
import { Level, type ILevel } from './level.entity.js';

/**
 * The only reads and writes of `levels` (docs/design.md section 3): list, create, update, delete. What
 * uses a level (its teams and exercises) is counted by the teams and exercises modules.
 */
export const levelRows = catalogRows<ILevel, LevelRow, LevelInput>(Level, {
  toRow: (l) => ({ id: l.id, level: l.level }),
});

/** How long the level ids the socket handshake checks against are trusted, in ms. */
const KNOWN_LEVELS_MS = 60_000;

/**
 * Whether every id of `ids` names a level, for the socket handshake's `levels` (docs/design.md section 6):
 * the ids are read once a minute at most, and again as soon as an unknown id is asked about. Handed to
 * the socket plugin by app.ts.
 */
export function knownLevels(orm: MikroORM): (ids: number[]) => Promise<boolean> {
  let known: { ids: Set<number>; at: number } | null = null;
  return async (ids) => {
    if (!known || Date.now() - known.at > KNOWN_LEVELS_MS || ids.some((id) => !known!.ids.has(id))) {
      const levels = await orm.em.fork().findAll(Level, { fields: ['id'] });
      known = { ids: new Set(levels.map((level) => level.id)), at: Date.now() };
    }
    return ids.every((id) => known!.ids.has(id));
  };
}
