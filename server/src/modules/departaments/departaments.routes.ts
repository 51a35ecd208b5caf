import { departamentsApi } from '@concurso/shared';
import { catalogRoutes } from '../catalogs/index.js';
import { departamentRows } from './departaments.repository.js';

/**
 * Departaments (docs/spec.md sections 2, 3, 7): `getDepartaments` (with `school.name`),
 * `createDepartament {name, type, schools_id}`, `updateDepartament`, `deleteDepartament/{id}`.
 */
export default catalogRoutes({ catalog: 'departaments', api: departamentsApi, ...departamentRows });
