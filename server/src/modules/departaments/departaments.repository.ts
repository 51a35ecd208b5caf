import type { DepartamentInput, DepartamentRow } from '@concurso/shared';
import { catalogRows, requireExisting } from '../catalogs/index.js';
import { School } from '../schools/index.js';
import { Career } from '../careers/index.js';
import { Departament, type IDepartament } from './departament.entity.js';

/**
 * The only reads and writes of `departaments`: rows embed their school's name (docs/spec.md section 3);
 * `schools_id` must name a school (422); a departament with careers stays.
 */
export const departamentRows = catalogRows<IDepartament, DepartamentRow, DepartamentInput>(Departament, {
  populate: ['school'],
  toRow: ({ id, name, type, school }) => ({
    id,
    name,
    type,
    schools_id: school.id,
    school: { id: school.id, name: school.name },
  }),
  toData: async (em, { schools_id, ...input }) => ({
    ...input,
    school: await requireExisting(em, School, schools_id, 'schools_id', 'La escuela seleccionada no existe.'),
  }),
  uses: async (em, id) => [[await em.count(Career, { departament: id }), 'carrera', 'carreras']],
});
