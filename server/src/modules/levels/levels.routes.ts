import { LEVELS, levelsApi } from '@concurso/shared';
import { catalogRoutes, inUseMessage } from '../catalogs/index.js';
import { levelRows } from './levels.repository.js';

const BOARD_LEVEL_IDS: readonly number[] = Object.values(LEVELS);

/** Levels (docs/spec.md sections 2, 3, 7): `getLevels`, `createLevel`, `updateLevel`, `deleteLevel/{id}`. */
export default catalogRoutes({
  catalog: 'levels',
  api: levelsApi,
  ...levelRows,
  async inUse(_em, id, uses) {
    const used = inUseMessage(levelsApi.thing, await uses());
    if (used) return used;
    // The live board has one table per seeded level (docs/design.md section 3).
    return BOARD_LEVEL_IDS.includes(id)
      ? 'No se puede eliminar el nivel: Básico, Intermedio y Avanzado son los niveles del tablero.'
      : null;
  },
});
