import { type DepartamentRow } from '@concurso/shared';
import { departamentsApi } from '@concurso/shared';
import { Departament } from './departament.entity.js';
import { School } from '../schools/school.entity.js';
import type { IDepartament } from './departament.entity.js';
import { catalogRoutes, countWhere, plural, requireReference } from '../catalogs/catalog-routes.js';

/** A departament row with its school's name embedded (SPEC.md section 3). */
const toRow = (d: IDepartament): DepartamentRow => ({
  id: d.id,
  name: d.name,
  type: d.type,
  schools_id: d.school.id,
  school: { id: d.school.id, name: d.school.name },
});
const MISSING_SCHOOL = 'La escuela seleccionada no existe.';

/**
 * Departaments (SPEC.md sections 2, 3, 7): `getDepartaments` (with `school.name`),
 * `createDepartament {name, type, schools_id}`, `updateDepartament`, `deleteDepartament/{id}`.
 */
export default catalogRoutes({
  catalog: 'departaments',
  api: departamentsApi,
  async list(em) {
    return (await em.find(Departament, {}, { orderBy: { id: 'asc' }, populate: ['school'] })).map(toRow);
  },
  async create(em, { schools_id, ...input }) {
    await requireReference(em, 'schools', schools_id, 'schools_id', MISSING_SCHOOL);
    const departament = em.create(Departament, { ...input, school: em.getReference(School, schools_id) });
    await em.flush();
    await em.populate(departament, ['school']);
    return toRow(departament);
  },
  async update(em, id, { schools_id, ...input }) {
    const departament = await em.findOne(Departament, id);
    if (!departament) return null;
    await requireReference(em, 'schools', schools_id, 'schools_id', MISSING_SCHOOL);
    em.assign(departament, { ...input, school: em.getReference(School, schools_id) });
    await em.flush();
    await em.populate(departament, ['school'], { refresh: true });
    return toRow(departament);
  },
  async inUse(em, id) {
    const n = await countWhere(em, 'careers', 'departaments_id', id);
    return n > 0
      ? `No se puede eliminar el departamento: lo usan ${plural(n, 'carrera', 'carreras')}.`
      : null;
  },
  async remove(em, id) {
    return (await em.nativeDelete(Departament, { id })) > 0;
  },
});
