import { careersApi } from '@concurso/shared';
import { catalogRoutes } from '../catalogs/index.js';
import { careerRows } from './careers.repository.js';

/**
 * Careers (docs/spec.md sections 2, 3, 7): `getCareers` (with `departament.name`),
 * `createCareer {name, departaments_id}`, `updateCareer`, `deleteCareer/{id}`.
 */
export default catalogRoutes({ catalog: 'careers', api: careersApi, ...careerRows });
