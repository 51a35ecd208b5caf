import type { LevelInput, LevelRow } from '@concurso/shared';
import { catalogRows } from '../catalogs/catalog-rows.js';
import { Team } from '../teams/team.entity.js';
import { Exercise } from '../exercises/exercise.entity.js';
import { Level, type ILevel } from './level.entity.js';

/**
 * The only reads and writes of `levels` (DESIGN.md section 3): list, create, update, delete, and what
 * uses a level (its teams and exercises, counted through their entities).
 */
export const levelRows = catalogRows<ILevel, LevelRow, LevelInput>(Level, {
  toRow: (l) => ({ id: l.id, level: l.level }),
  uses: async (em, id) => [
    [await em.count(Team, { level: id }), 'equipo', 'equipos'],
    [await em.count(Exercise, { level: id }), 'ejercicio', 'ejercicios'],
  ],
});
