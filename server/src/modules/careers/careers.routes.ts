import { type CareerRow } from '@concurso/shared';
import { careersApi } from '@concurso/shared';
import { Career } from './career.entity.js';
import { Departament } from '../departaments/departament.entity.js';
import type { ICareer } from './career.entity.js';
import { catalogRoutes, countWhere, plural, requireReference } from '../catalogs/catalog-routes.js';

/** A career row with its departament's name embedded (SPEC.md section 3). */
const toRow = (c: ICareer): CareerRow => ({
  id: c.id,
  name: c.name,
  departaments_id: c.departament.id,
  departament: { id: c.departament.id, name: c.departament.name },
});
const MISSING_DEPARTAMENT = 'El departamento seleccionado no existe.';

/**
 * Careers (SPEC.md sections 2, 3, 7): `getCareers` (with `departament.name`),
 * `createCareer {name, departaments_id}`, `updateCareer`, `deleteCareer/{id}`.
 */
export default catalogRoutes({
  catalog: 'careers',
  api: careersApi,
  async list(em) {
    return (await em.find(Career, {}, { orderBy: { id: 'asc' }, populate: ['departament'] })).map(toRow);
  },
  async create(em, { departaments_id, ...input }) {
    await requireReference(em, 'departaments', departaments_id, 'departaments_id', MISSING_DEPARTAMENT);
    const career = em.create(Career, {
      ...input,
      departament: em.getReference(Departament, departaments_id),
    });
    await em.flush();
    await em.populate(career, ['departament']);
    return toRow(career);
  },
  async update(em, id, { departaments_id, ...input }) {
    const career = await em.findOne(Career, id);
    if (!career) return null;
    await requireReference(em, 'departaments', departaments_id, 'departaments_id', MISSING_DEPARTAMENT);
    em.assign(career, { ...input, departament: em.getReference(Departament, departaments_id) });
    await em.flush();
    await em.populate(career, ['departament'], { refresh: true });
    return toRow(career);
  },
  async inUse(em, id) {
    const n = await countWhere(em, 'members', 'careers_id', id);
    return n > 0
      ? `No se puede eliminar la carrera: la usan ${plural(n, 'integrante', 'integrantes')}.`
      : null;
  },
  async remove(em, id) {
    return (await em.nativeDelete(Career, { id })) > 0;
  },
});
