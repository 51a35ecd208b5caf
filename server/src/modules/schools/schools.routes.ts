import { schoolsApi } from '@concurso/shared';
import { catalogRoutes } from '../catalogs/index.js';
import { schoolRows } from './schools.repository.js';

/** Schools (docs/spec.md sections 2, 3, 7): `getSchools`, `createSchool`, `updateSchool`, `deleteSchool/{id}`. */
export default catalogRoutes({ catalog: 'schools', api: schoolsApi, ...schoolRows });
