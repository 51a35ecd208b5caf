import type { CareerInput, CareerRow } from '@concurso/shared';
import { catalogRows, requireExisting, type CatalogUsage } from '../catalogs/index.js';
import { Departament } from '../departaments/index.js';
import { Career, type ICareer } from './career.entity.js';

const MISSING_DEPARTAMENT = 'El departamento seleccionado no existe.';

/**
 * The only reads and writes of `careers`: rows embed their departament's name (docs/spec.md section 3);
 * `departaments_id` must name a departament (422); a career of a member stays (the members module counts them).
 */
export const careerRows = catalogRows<ICareer, CareerRow, CareerInput>(Career, {
  populate: ['departament'],
  toRow: ({ id, name, departament }) => ({
    id,
    name,
    departaments_id: departament.id,
    departament: { id: departament.id, name: departament.name },
  }),
  toData: async (em, { departaments_id: id, ...input }) => ({
    ...input,
    departament: await requireExisting(em, Departament, id, 'departaments_id', MISSING_DEPARTAMENT),
  }),
});

/**
 * A career's departament, which it keeps from being deleted (the 409 "in use": 'N carrera(s)'). Handed
 * to the departaments catalogue by app.ts (`catalogUsages`).
 */
export const careerUsages: readonly CatalogUsage[] = [
  {
    catalog: 'departaments',
    one: 'carrera',
    many: 'carreras',
    count: (em, id) => em.count(Career, { departament: id }),
  },
];
