import type { EntityManager } from '@mikro-orm/mysql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { logsRoutes as api } from '@concurso/shared';
import { addRoute } from '../../lib/route.js';
import { requireTeam } from '../teams/teams.repository.js';
import { listAttemptLog, listStatusLog } from './logs.repository.js';

/**
 * The two logs DESIGN.md section 4 keeps beyond the spec, for admins and judges: the calls of
 * `logsRoutes` (shared/src/api/logs.ts). 404 for an unknown team.
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
};

export default logsRoutes;
