import { type CoachRow } from '@concurso/shared';
import { coachesApi } from '@concurso/shared';
import { Coach } from './coach.entity.js';
import { catalogRoutes, countWhere, plural } from '../catalogs/catalog-routes.js';

const toRow = (c: { id: number; name: string; educationalLevel: string }): CoachRow => ({
  id: c.id,
  name: c.name,
  educationalLevel: c.educationalLevel,
});

/** Coaches (SPEC.md sections 2, 3, 7): `getCoaches`, `createCoach {name, educationalLevel}`, `updateCoach`, `deleteCoach/{id}`. */
export default catalogRoutes({
  catalog: 'coaches',
  api: coachesApi,
  async list(em) {
    return (await em.find(Coach, {}, { orderBy: { id: 'asc' } })).map(toRow);
  },
  async create(em, input) {
    const coach = em.create(Coach, input);
    await em.flush();
    return toRow(coach);
  },
  async update(em, id, input) {
    const coach = await em.findOne(Coach, id);
    if (!coach) return null;
    em.assign(coach, input);
    await em.flush();
    return toRow(coach);
  },
  async inUse(em, id) {
    const n = await countWhere(em, 'teams', 'coaches_id', id);
    return n > 0 ? `No se puede eliminar el coach: lo usan ${plural(n, 'equipo', 'equipos')}.` : null;
  },
  async remove(em, id) {
    return (await em.nativeDelete(Coach, { id })) > 0;
  },
});
