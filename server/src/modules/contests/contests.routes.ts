import type { FastifyInstance } from 'fastify';
import { MESSAGES, contestsCatalogApi, contestsRoutes as api } from '@concurso/shared';
import { transaction } from '../../db/transaction.js';
import { addRoute } from '../../lib/route.js';
import { HttpError } from '../../lib/http-error.js';
import { catalogRoutes, type CatalogRoutesOptions } from '../catalogs/index.js';
import {
  activateContest,
  contestPermittedProcesses,
  contestProcesses,
  deleteContest,
  insertContest,
  listContests,
  updateAllowedSites,
  updateContest,
} from './contests.repository.js';
import {
  contestData,
  contestInUse,
  copyBlockedSet,
  replaceProcessSet,
  requireContest,
} from './contests.service.js';
import { networkSitesInfo, type SiteLookup } from './network-sites.js';

/** Options of the contests module. */
export interface ContestsRoutesOptions extends CatalogRoutesOptions {
  /** How `POST /api/networkSitesInfo` resolves host names (default: the system's resolver; tests). */
  siteLookup?: SiteLookup;
}

/**
 * Contests (docs/spec.md sections 2, 3, 7): `getContests`, `createContest {calendar?, date, max_attempts?,
 * copy_from_contests_id?}`, `updateContest`, `deleteContest/{id}`. `calendar` is derived from the date
 * when missing (docs/design.md section 3); the first contest becomes the active one. Boards refetch after
 * any change (the active contest's calendar or date may be what changed).
 */
const crud = catalogRoutes({
  catalog: 'contests',
  api: contestsCatalogApi,
  resetsBoard: true,
  list: listContests,
  async create(em, input, staffId) {
    const row = await insertContest(em, contestData(input), staffId);
    if (input.copy_from_contests_id !== undefined)
      await copyBlockedSet(em, input.copy_from_contests_id, row.id);
    return row;
  },
  update: (em, id, input, staffId) => updateContest(em, id, contestData(input), staffId),
  inUse: contestInUse,
  remove: deleteContest,
});

/** The contests module: its catalogue's four calls and its blocked processes (shared/src/api/contests.ts). */
export default async function contestsRoutes(
  app: FastifyInstance,
  options: ContestsRoutesOptions,
): Promise<void> {
  await app.register(crud, { uses: options.uses });

  addRoute(app, api.blockedProcesses, async (request) => {
    const { contestId } = request.params;
    await requireContest(app.orm.em, contestId);
    return { success: true as const, data: await contestProcesses(app.orm.em, contestId), message: '' };
  });

  // Every screen refetches its snapshot (the active contest's teams); agents of its teams get its
  // blocked set, and every other team's agent an empty one, on the push channel.
  addRoute(app, api.activate, async (request) => {
    const data = await transaction(app.orm.em, (em) => activateContest(em, request.params.id));
    if (!data) throw new HttpError(404, MESSAGES.contestNotFound);
    app.board.reset();
    app.board.catalogChanged('contests');
    return { success: true as const, data, message: MESSAGES.processed };
  });

  // Running agents get the new set on the push channel within a second (`catalog.changed`
  // of contest_processes starts their round), or at their next config read without it.
  addRoute(app, api.replaceBlockedProcesses, async (request) => {
    const { contests_id, processes_id } = request.body;
    const data = await transaction(app.orm.em, async (em) => {
      await replaceProcessSet(em, contests_id, processes_id, 'blocked');
      return contestProcesses(em, contests_id);
    });
    app.board.catalogChanged('contest_processes');
    return { success: true as const, data, message: MESSAGES.created };
  });

  // The agents of the active contest get the new network policy on the push channel
  // (`catalog.changed` of contests starts their round) and put it in force.
  addRoute(app, api.updateAllowedSites, async (request) => {
    const { contests_id, allowed_sites } = request.body;
    const data = await transaction(app.orm.em, (em) =>
      updateAllowedSites(em, contests_id, allowed_sites, request.staff?.id ?? null),
    );
    if (!data) throw new HttpError(404, MESSAGES.contestNotFound);
    app.board.catalogChanged('contests');
    return { success: true as const, data, message: MESSAGES.saved };
  });

  // What the listed host names mean on the lab machines, while the admin edits the list: read only.
  addRoute(app, api.networkSitesInfo, async (request) => ({
    success: true as const,
    data: await networkSitesInfo(request.body.hosts, options.siteLookup),
    message: '',
  }));

  // «Programas permitidos» (docs/design.md section 6a "Fingerprints"): a fingerprint that matches one's
  // known file applies to no machine, so every agent's policy is computed again.
  addRoute(app, api.permittedProcesses, async (request) => {
    const { contestId } = request.params;
    await requireContest(app.orm.em, contestId);
    return {
      success: true as const,
      data: await contestPermittedProcesses(app.orm.em, contestId),
      message: '',
    };
  });

  addRoute(app, api.updatePermittedProcesses, async (request) => {
    const { contests_id, processes_id } = request.body;
    const data = await transaction(app.orm.em, async (em) => {
      await replaceProcessSet(em, contests_id, processes_id, 'permitted');
      return contestPermittedProcesses(em, contests_id);
    });
    app.agentChannel.policyChanged();
    return { success: true as const, data, message: MESSAGES.saved };
  });
}
