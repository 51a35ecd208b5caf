import type { CoachInput, CoachRow } from '@concurso/shared';
import { catalogRows } from '../catalogs/index.js';
import { Team } from '../teams/index.js';
import { Coach, type ICoach } from './coach.entity.js';

/** The only reads and writes of `coaches`; a coach of a team stays (counted by entity). */
export const coachRows = catalogRows<ICoach, CoachRow, CoachInput>(Coach, {
  toRow: ({ id, name, educationalLevel }) => ({ id, name, educationalLevel }),
  uses: async (em, id) => [[await em.count(Team, { coach: id }), 'equipo', 'equipos']],
});
