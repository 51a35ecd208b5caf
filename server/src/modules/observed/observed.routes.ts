import type { FastifyInstance } from 'fastify';
import { MESSAGES, agentRoutes, observedRoutes } from '@concurso/shared';
import { transaction } from '../../db/transaction.js';
import { HttpError } from '../../lib/http-error.js';
import { addRoute } from '../../lib/route.js';
import { activeContest, addContestProcess, contestOrActive } from '../contests/index.js';
import { recordBlockClaim } from '../fingerprints/index.js';
import { findOrCreateProcess } from '../processes/index.js';
import { PerMinuteLimiter } from '../../realtime/per-minute-limiter.js';
import { boardRows } from '../teams/index.js';
import { markNewPrograms } from './observed-new-programs.js';
import { observedPage, observedTeamIds, recordObserved } from './observed.repository.js';
import { observedIdentity } from './similar-programs.repository.js';
import { registerSimilarPrograms } from './similar-programs.routes.js';

/**
 * "What ran in the lab" (docs/design.md section 6): the agents' reports of the executables that
 * started on the teams' machines (`POST /api/agent/observed`), the inventory for judges and admins
 * (`GET /api/observedProcesses`) and its "Bloquear" (`POST /api/blockObservedProcess`).
 */
export default async function observedRoutesModule(
  app: FastifyInstance,
  options: { fingerprintQuorum: number; maxPerTeam: number; reportsPerMinute: number },
): Promise<void> {
  const reports = new PerMinuteLimiter('observed-team', options.reportsPerMinute, app.redis);

  // Bounds on what one key may send (docs/design.md section 6a), in this order: a team outside the active
  // contest gets 409 `agentContestInactive` (nothing stored, never counted into another contest); past
  // `reportsPerMinute` reports a minute, 429 `observedRateLimited` with `Retry-After` (nothing stored: the
  // agent keeps the entries and sends them later); a contest that does not observe stores nothing
  // (`{stored: 0}`: the agent stops at its next config); past the team's `maxPerTeam` distinct programs the new ones are
  // left out and the answer is 429 `observedCapReached` (the rest was stored: the agent drops the batch). The
  // contest is the guard's (its 5 s key cache).
  addRoute(app, agentRoutes.observed, async (request, reply) => {
    const { id, contests_id } = request.agentTeam!;
    const em = app.orm.em;
    const contest = await contestOrActive(em, contests_id);
    if (!contest?.active) throw new HttpError(409, MESSAGES.agentContestInactive);
    const wait = await reports.take(id);
    if (wait !== null) {
      void reply.header('retry-after', String(Math.ceil(wait / 1000)));
      throw new HttpError(429, MESSAGES.observedRateLimited);
    }
    if (!contest.observe_processes) {
      return { success: true as const, data: { stored: 0 }, message: MESSAGES.processed };
    }
    const { stored, refused } = await recordObserved(
      em,
      contests_id,
      id,
      request.body.observed,
      options.maxPerTeam,
      request.body.hostname ?? '',
    );
    // «Programa nuevo» (observed-new-programs.ts): this team's mark, and the marks this report makes
    // known on other teams; their board rows go out once that transaction committed.
    const marked = await transaction(em, (tx) => markNewPrograms(tx, contests_id, id, request.body.observed));
    if (marked.length > 0) {
      for (const row of await boardRows(em, marked)) app.board.teamUpdated(row);
    }
    if (refused > 0) throw new HttpError(429, MESSAGES.observedCapReached);
    return { success: true as const, data: { stored }, message: MESSAGES.processed };
  });

  // The active contest's inventory, or `contests_id`'s (404 when unknown), one page of it; none
  // active: empty.
  addRoute(app, observedRoutes.list, async (request) => {
    const { contests_id, page, page_size, sort, dir, q } = request.query;
    const contest = await contestOrActive(app.orm.em, contests_id);
    if (!contest) {
      if (contests_id !== undefined) throw new HttpError(404, MESSAGES.contestNotFound);
      return { success: true as const, data: { contest: null, rows: [], total: 0 }, message: '' };
    }
    const found = await observedPage(app.orm.em, contest.id, options.fingerprintQuorum, {
      page,
      pageSize: page_size,
      sort,
      dir,
      q,
    });
    return { success: true as const, data: { contest, ...found }, message: '' };
  });

  // "Bloquear": the process by name (created when the catalogue lacks it; the body's schema names it
  // as the catalogue requires) joins the active contest's blocked set, and its fingerprint is recorded
  // as a claim of the teams whose agents saw it run (not confirmed; it reaches every machine
  // when an admin confirms it in Procesos or the quorum claimed it); all or nothing, and a second call
  // changes nothing. Open screens refetch as after "Asignar procesos"; agents get the set on the push
  // channel.
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
              undefined,
              await observedIdentity(em, contest.id, sha256),
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

  // «También coincide con» before a block applies (agent/README.md, «Copias modificadas»).
  registerSimilarPrograms(app);
}
