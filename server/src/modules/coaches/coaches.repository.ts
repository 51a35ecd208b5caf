import type { CoachInput, CoachRow } from '@concurso/shared';
import { catalogRows } from '../catalogs/index.js';
import { Coach, type ICoach } from './coach.entity.js';

/** The only reads and writes of `coaches`; a coach of a team stays (the teams module counts them). */
export const coachRows = catalogRows<ICoach, CoachRow, CoachInput>(Coach, {
  toRow: ({ id, name, educationalLevel }) => ({ id, name, educationalLevel }),
});
