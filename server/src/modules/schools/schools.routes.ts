import { type SchoolRow } from '@concurso/shared';
import { schoolsApi } from '@concurso/shared';
import { School } from './school.entity.js';
import { catalogRoutes, countWhere, plural } from '../catalogs/catalog-routes.js';

const toRow = (s: { id: number; name: string }): SchoolRow => ({ id: s.id, name: s.name });

/** Schools (SPEC.md sections 2, 3, 7): `getSchools`, `createSchool`, `updateSchool`, `deleteSchool/{id}`. */
export default catalogRoutes({
  catalog: 'schools',
  api: schoolsApi,
  async list(em) {
    return (await em.find(School, {}, { orderBy: { id: 'asc' } })).map(toRow);
  },
  async create(em, input) {
    const school = em.create(School, input);
    await em.flush();
    return toRow(school);
  },
  async update(em, id, input) {
    const school = await em.findOne(School, id);
    if (!school) return null;
    em.assign(school, input);
    await em.flush();
    return toRow(school);
  },
  async inUse(em, id) {
    const n = await countWhere(em, 'departaments', 'schools_id', id);
    return n > 0
      ? `No se puede eliminar la escuela: la usan ${plural(n, 'departamento', 'departamentos')}.`
      : null;
  },
  async remove(em, id) {
    return (await em.nativeDelete(School, { id })) > 0;
  },
});
