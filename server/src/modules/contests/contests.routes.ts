import type { FastifyInstance } from 'fastify';
import { MESSAGES, contestsCatalogApi, contestsRoutes as api } from '@concurso/shared';
import { transaction } from '../../db/transaction.js';
import { addRoute } from '../../lib/route.js';
import { catalogRoutes } from '../catalogs/catalog-routes.js';
import {
  contestProcesses,
  deleteContest,
  insertContest,
  listContests,
  updateContest,
} from './contests.repository.js';
import { contestData, contestInUse, replaceBlockedSet, requireContest } from './contests.service.js';

/**
 * Contests (SPEC.md sections 2, 3, 7): `getContests`, `createContest {calendar?, date}`, `updateContest`,
 * `deleteContest/{id}`. `calendar` is derived from the date when missing (DESIGN.md section 3). Any
 * change may change which contest is current, so boards refetch.
 */
const crud = catalogRoutes({
  catalog: 'contests',
  api: contestsCatalogApi,
  resetsBoard: true,
  list: listContests,
  create: (em, input) => insertContest(em, contestData(input)),
  update: (em, id, input) => updateContest(em, id, contestData(input)),
  inUse: contestInUse,
  remove: deleteContest,
});

/** The contests module: its catalogue's four calls and its blocked processes (shared/src/api/contests.ts). */
export default async function contestsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(crud);

  addRoute(app, api.blockedProcesses, async (request) => {
    const { contestId } = request.params;
    await requireContest(app.orm.em, contestId);
    return { success: true as const, data: await contestProcesses(app.orm.em, contestId), message: '' };
  });

  // Running agents pick the new set up at their next config refresh (DESIGN.md section 6).
  addRoute(app, api.replaceBlockedProcesses, async (request) => {
    const { contests_id, processes_id } = request.body;
    const data = await transaction(app.orm.em, async (em) => {
      await replaceBlockedSet(em, contests_id, processes_id);
      return contestProcesses(em, contests_id);
    });
    app.board.catalogChanged('contest_processes');
    return { success: true as const, data, message: MESSAGES.created };
  });
}
