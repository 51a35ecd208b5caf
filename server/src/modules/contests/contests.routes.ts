import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { transaction } from '../../db/transaction.js';
import { z } from 'zod';
import {
  MESSAGES,
  blockedProcessesInputSchema,
  calendarOf,
  contestProcessRowSchema,
  okEnvelope,
  type ContestRow,
  idSchema,
} from '@concurso/shared';
import { contestsCatalogApi } from '@concurso/shared';
import { Contest } from './contest.entity.js';
import { catalogRoutes, countWhere, plural } from '../catalogs/catalog-routes.js';
import { ADMIN_ACCESS, STAFF_ACCESS } from '../../plugins/access.js';
import { toIsoDate } from '../board/board.service.js';
import { contestProcesses, replaceBlockedSet, requireContest } from './contests.service.js';
import { emitCatalogChanged } from '../../realtime/board-events.js';

const toRow = (c: { id: number; calendar: string; date: string | Date }): ContestRow => ({
  id: c.id,
  calendar: c.calendar,
  date: toIsoDate(c.date),
});

/**
 * Contests (SPEC.md sections 2, 3, 7): `getContests`, `createContest {calendar?, date}`, `updateContest`,
 * `deleteContest/{id}`. `calendar` is derived from the date when missing (DESIGN.md section 3). Any
 * change may change which contest is current, so boards refetch.
 */
const crud = catalogRoutes({
  catalog: 'contests',
  api: contestsCatalogApi,
  resetsBoard: true,
  async list(em) {
    return (await em.find(Contest, {}, { orderBy: { id: 'asc' } })).map(toRow);
  },
  async create(em, { date, calendar }) {
    const contest = em.create(Contest, { date, calendar: calendar ?? calendarOf(date) });
    await em.flush();
    return toRow(contest);
  },
  async update(em, id, { date, calendar }) {
    const contest = await em.findOne(Contest, id);
    if (!contest) return null;
    em.assign(contest, { date, calendar: calendar ?? calendarOf(date) });
    await em.flush();
    return toRow(contest);
  },
  async inUse(em, id) {
    const teams = await countWhere(em, 'teams', 'contests_id', id);
    const exercises = await countWhere(em, 'exercises', 'contests_id', id);
    if (!teams && !exercises) return null;
    const uses = [
      teams ? plural(teams, 'equipo', 'equipos') : '',
      exercises ? plural(exercises, 'ejercicio', 'ejercicios') : '',
    ].filter(Boolean);
    return `No se puede eliminar el concurso: tiene ${uses.join(' y ')}.`;
  },
  async remove(em, id) {
    // The blocked set is the contest's own configuration: it goes with it.
    await em.execute('delete from contest_processes where contests_id = ?', [id]);
    return (await em.nativeDelete(Contest, { id })) > 0;
  },
});

const contestsRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(crud);

  /** `GET /api/processContest/{contestId}`: the contest's blocked processes (`processes.name`). 404 unknown contest. */
  app.get(
    '/processContest/:contestId',
    {
      config: { access: STAFF_ACCESS },
      schema: {
        tags: ['concursos'],
        summary: 'Procesos bloqueados de un concurso',
        params: z.object({ contestId: idSchema }),
        response: { 200: okEnvelope(z.array(contestProcessRowSchema)) },
      },
    },
    async (request) => {
      const em = app.orm.em;
      await requireContest(em, request.params.contestId);
      return {
        success: true as const,
        data: await contestProcesses(em, request.params.contestId),
        message: '',
      };
    },
  );

  /**
   * `POST /api/createBlockedProcessForContest {contests_id, processes_id[]}` (admin): replaces the
   * contest's blocked set in one transaction. Running agents pick it up at their next config refresh.
   */
  app.post(
    '/createBlockedProcessForContest',
    {
      config: { access: ADMIN_ACCESS },
      schema: {
        tags: ['concursos'],
        summary: 'Asigna los procesos bloqueados de un concurso',
        body: blockedProcessesInputSchema,
        response: { 200: okEnvelope(z.array(contestProcessRowSchema)) },
      },
    },
    async (request) => {
      const { contests_id, processes_id } = request.body;
      const data = await transaction(app.orm.em, async (em) => {
        await requireContest(em, contests_id);
        await replaceBlockedSet(em, contests_id, processes_id);
        return contestProcesses(em, contests_id);
      });
      emitCatalogChanged(app.io, 'contest_processes');
      return { success: true as const, data, message: MESSAGES.created };
    },
  );
};

export default contestsRoutes;
