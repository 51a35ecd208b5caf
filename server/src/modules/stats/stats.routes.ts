import type { FastifyInstance } from 'fastify';
import { MESSAGES, statsRoutes as api } from '@concurso/shared';
import { addRoute } from '../../lib/route.js';
import { HttpError } from '../../lib/http-error.js';
import { contestStats, reportStatusChanges, reportTeams } from './stats.repository.js';

/**
 * A contest's statistics and report (shared/src/api/stats.ts), for admins and judges: the
 * /home "Estadísticas" panel and the /contests "Reporte". Reads only, each an aggregate in the
 * database; 404 for an unknown contest.
 */
export default async function statsRoutes(app: FastifyInstance): Promise<void> {
  addRoute(app, api.contestStats, async (request) => {
    const data = await contestStats(app.orm.em, request.params.contestId);
    if (!data) throw new HttpError(404, MESSAGES.contestNotFound);
    return { success: true as const, data, message: '' };
  });

  addRoute(app, api.contestReport, async (request) => {
    const { contestId } = request.params;
    const em = app.orm.em;
    const stats = await contestStats(em, contestId);
    if (!stats) throw new HttpError(404, MESSAGES.contestNotFound);
    const data = {
      ...stats,
      teams: await reportTeams(em, contestId),
      status_changes: await reportStatusChanges(em, contestId),
    };
    return { success: true as const, data, message: '' };
  });
}
