import type { DepartamentInput, DepartamentRow } from '@concurso/shared';
import { catalogRows, requireExisting, type CatalogUsage } from '../catalogs/index.js';
import { School } from '../schools/index.js';
import { Departament, type IDepartament } from './departament.entity.js';

/**
 * The only reads and writes of `departaments`: rows embed their school's name (docs/spec.md section 3);
 * `schools_id` must name a school (422); a departament with careers stays (the careers module counts them).
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
});

/**
 * A departament's school, which it keeps from being deleted (the 409 "in use": 'N departamento(s)').
 * Handed to the schools catalogue by app.ts (`catalogUsages`).
 */
export const departamentUsages: readonly CatalogUsage[] = [
  {
    catalog: 'schools',
    one: 'departamento',
    many: 'departamentos',
    count: (em, id) => em.count(Departament, { school: id }),
  },
];
