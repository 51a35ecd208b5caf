import { coachesApi } from '@concurso/shared';
import { catalogRoutes } from '../catalogs/index.js';
import { coachRows } from './coaches.repository.js';

/** Coaches (docs/spec.md sections 2, 3, 7): `getCoaches`, `createCoach {name, educationalLevel}`, `updateCoach`, `deleteCoach/{id}`. */
export default catalogRoutes({ catalog: 'coaches', api: coachesApi, ...coachRows });
