import { LEVELS, type LevelRow } from '@concurso/shared';
import { levelsApi } from '@concurso/shared';
import { Level } from './level.entity.js';
import { catalogRoutes, countWhere, plural } from '../catalogs/catalog-routes.js';

const toRow = (l: { id: number; level: string }): LevelRow => ({ id: l.id, level: l.level });
const BOARD_LEVEL_IDS: readonly number[] = Object.values(LEVELS);

/** Levels (SPEC.md sections 2, 3, 7): `getLevels`, `createLevel`, `updateLevel`, `deleteLevel/{id}`. */
export default catalogRoutes({
  catalog: 'levels',
  api: levelsApi,
  async list(em) {
    return (await em.find(Level, {}, { orderBy: { id: 'asc' } })).map(toRow);
  },
  async create(em, input) {
    const level = em.create(Level, input);
    await em.flush();
    return toRow(level);
  },
  async update(em, id, input) {
    const level = await em.findOne(Level, id);
    if (!level) return null;
    em.assign(level, input);
    await em.flush();
    return toRow(level);
  },
  async inUse(em, id) {
    const teams = await countWhere(em, 'teams', 'levels_id', id);
    const exercises = await countWhere(em, 'exercises', 'levels_id', id);
    if (teams || exercises) {
      const uses = [
        teams ? plural(teams, 'equipo', 'equipos') : '',
        exercises ? plural(exercises, 'ejercicio', 'ejercicios') : '',
      ].filter(Boolean);
      return `No se puede eliminar el nivel: lo usan ${uses.join(' y ')}.`;
    }
    // The live board has one table per seeded level (DESIGN.md section 3).
    if (BOARD_LEVEL_IDS.includes(id)) {
      return 'No se puede eliminar el nivel: Básico, Intermedio y Avanzado son los niveles del tablero.';
    }
    return null;
  },
  async remove(em, id) {
    return (await em.nativeDelete(Level, { id })) > 0;
  },
});
