import type { EntityManager } from '@mikro-orm/mysql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { logsRoutes as api } from '@concurso/shared';
import { addRoute } from '../../lib/route.js';
import { activeContest } from '../contests/index.js';
import { requireTeam } from '../teams/index.js';
import { listAttemptLog, listContestLog, listStatusLog } from './logs.repository.js';

/**
 * The logs docs/design.md section 4 keeps beyond the spec, for admins and judges: the calls of
 * `logsRoutes` (shared/src/api/logs.ts). A team's logs (404 for an unknown team), and the active
 * contest's log of `/bitacora`.
 */
const logsRoutes: FastifyPluginAsyncZod = async (app) => {
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
      ? await listContestLog(app.orm.em, contest.id, request.query)
      : { rows: [], truncated: false };
    return { success: true as const, data: { contest, ...log }, message: '' };
  });
};

export default logsRoutes;
