import type { FastifyInstance } from 'fastify';
import { MESSAGES, agentRoutes, observedRoutes } from '@concurso/shared';
import { transaction } from '../../db/transaction.js';
import { HttpError } from '../../lib/http-error.js';
import { addRoute } from '../../lib/route.js';
import {
  activeContest,
  addContestProcess,
  contestOrActive,
  isObservingContest,
} from '../contests/contests.repository.js';
import { recordBlockClaim } from '../processes/process-fingerprints.repository.js';
import { findOrCreateProcess } from '../processes/processes.repository.js';
import { observedRows, observedTeamIds, recordObserved } from './observed.repository.js';

/**
 * "What ran in the lab" (issue 14, DESIGN.md section 6): the agents' reports of the executables that
 * started on the teams' machines (`POST /api/agent/observed`), the inventory for judges and admins
 * (`GET /api/observedProcesses`) and its "Bloquear" (`POST /api/blockObservedProcess`).
 */
export default async function observedRoutesModule(
  app: FastifyInstance,
  options: { fingerprintQuorum: number },
): Promise<void> {
  // Stored only while the team's contest is the active one and observes (`observe_processes`);
  // otherwise `{stored: 0}`, and the agent stops reporting at its next config (`observe` false). The
  // contest is the guard's (its 5 s key cache): a team moved to another contest reports into it then.
  addRoute(app, agentRoutes.observed, async (request) => {
    const { id, contests_id } = request.agentTeam!;
    const em = app.orm.em;
    const stored = (await isObservingContest(em, contests_id))
      ? await recordObserved(em, contests_id, id, request.body.observed)
      : 0;
    return { success: true as const, data: { stored }, message: MESSAGES.processed };
  });

  // The active contest's inventory, or `contests_id`'s (404 when unknown); none active: empty.
  addRoute(app, observedRoutes.list, async (request) => {
    const { contests_id } = request.query;
    const contest = await contestOrActive(app.orm.em, contests_id);
    if (!contest) {
      if (contests_id !== undefined) throw new HttpError(404, MESSAGES.contestNotFound);
      return { success: true as const, data: { contest: null, rows: [] }, message: '' };
    }
    return {
      success: true as const,
      data: { contest, rows: await observedRows(app.orm.em, contest.id, options.fingerprintQuorum) },
      message: '',
    };
  });

  // "Bloquear": the process by name (created when the catalogue lacks it; the body's schema names it
  // as the catalogue requires) joins the active contest's blocked set, and its fingerprint is recorded
  // as a claim of the teams whose agents saw it run (issue 21: not confirmed; it reaches every machine
  // when an admin confirms it in Procesos or the quorum claimed it); all or nothing, and a second call
  // changes nothing. Open screens refetch as after "Asignar procesos"; agents pick
  // the set up at their next config refresh.
  addRoute(app, observedRoutes.block, async (request) => {
    const sha256 = request.body.sha256 ?? null;
    const outcome = await transaction(app.orm.em, async (em) => {
      const contest = await activeContest(em);
      if (!contest) throw new HttpError(409, MESSAGES.noActiveContest);
      const process = await findOrCreateProcess(em, request.body.name);
      const learned =
        sha256 === null
          ? false
          : await recordBlockClaim(
              em,
              contest.id,
              process.id,
              sha256,
              await observedTeamIds(em, contest.id, sha256),
            );
      const added = await addContestProcess(em, contest.id, process.id);
      return { contest, process, changed: learned || added };
    });
    if (outcome.process.created) app.board.catalogChanged('processes');
    if (outcome.changed || outcome.process.created) app.board.catalogChanged('contest_processes');
    return {
      success: true as const,
      data: {
        processes_id: outcome.process.id,
        name: outcome.process.name,
        contests_id: outcome.contest.id,
      },
      message: MESSAGES.saved,
    };
  });
}
