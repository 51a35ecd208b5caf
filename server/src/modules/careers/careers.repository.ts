import type { CareerInput, CareerRow } from '@concurso/shared';
import { catalogRows, requireExisting } from '../catalogs/index.js';
import { Departament } from '../departaments/index.js';
import { Member } from '../members/index.js';
import { Career, type ICareer } from './career.entity.js';

const MISSING_DEPARTAMENT = 'El departamento seleccionado no existe.';

/**
 * The only reads and writes of `careers`: rows embed their departament's name (docs/spec.md section 3);
 * `departaments_id` must name a departament (422); a career of a member stays.
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
  uses: async (em, id) => [[await em.count(Member, { career: id }), 'integrante', 'integrantes']],
});
