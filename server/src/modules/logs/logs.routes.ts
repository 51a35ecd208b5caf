import type { EntityManager } from '@mikro-orm/mysql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES, logsRoutes as api } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';
import { addRoute } from '../../lib/route.js';
import { Contest, activeContest } from '../contests/index.js';
import { verifyChain } from '../chain/index.js';
import { requireTeam } from '../teams/index.js';
import { listAttemptLog, listContestLog, listStatusLog, type ScreenViewReader } from './logs.repository.js';

/** What app.ts hands the logs: the reader of the «Ver pantalla» rows (the captures module's). */
interface LogsRoutesOptions {
  screenViews?: ScreenViewReader;
}

/**
 * The logs docs/design.md section 4 keeps beyond the spec, for admins and judges: the calls of
 * `logsRoutes` (shared/src/api/logs.ts). A team's logs (404 for an unknown team), and the active
 * contest's log of `/bitacora`.
 */
const logsRoutes: FastifyPluginAsyncZod<LogsRoutesOptions> = async (app, options) => {
  /** A handler answering one team's log. */
  const teamLog =
    <Row>(list: (em: EntityManager, teamId: number) => Promise<Row[]>) =>
    async (request: { params: { teamId: number } }) => {
      const { teamId } = request.params;
      await requireTeam(app.orm.em, teamId);
      return { success: true as const, data: await list(app.orm.em, teamId), message: '' };
    };

  addRoute(app, api.attempts, teamLog(listAttemptLog));
  addRoute(app, api.statusChanges, teamLog(listStatusLog));

  // No active contest is an answer, not an error: the screen says so (MESSAGES.noActiveContest).
  addRoute(app, api.contestLog, async (request) => {
    const contest = await activeContest(app.orm.em);
    const log = contest
      ? await listContestLog(app.orm.em, contest.id, request.query, options.screenViews)
      : { rows: [], truncated: false };
    return { success: true as const, data: { contest, ...log }, message: '' };
  });

  // The chain of the named contest (404 when unknown) or the active one; none active: nothing to verify.
  addRoute(app, api.verifyChain, async (request) => {
    const named = request.query.contests_id;
    if (named !== undefined && (await app.orm.em.count(Contest, { id: named })) === 0)
      throw new HttpError(404, MESSAGES.contestNotFound);
    const contestId = named ?? (await activeContest(app.orm.em))?.id ?? null;
    const verdict = contestId === null ? { ok: true, count: 0 } : await verifyChain(app.orm.em, contestId);
    return { success: true as const, data: { contests_id: contestId, ...verdict }, message: '' };
  });
};

export default logsRoutes;
