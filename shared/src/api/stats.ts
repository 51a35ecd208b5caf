import { z } from 'zod';
import { idSchema } from '../schemas/common.js';
import { okEnvelope } from '../schemas/api.js';
import { contestReportSchema, contestStatsSchema } from '../schemas/stats.js';
import { STAFF_ACCESS } from './access.js';
import { defineRoute } from './route.js';

/** `{ contestId }` path parameters of the statistics calls. */
const contestIdParamsSchema = z.object({ contestId: idSchema });

/**
 * A contest's statistics and report, for admins and judges: the /home
 * "Estadísticas" panel and the /contests "Reporte". Both aggregate in the database; 404 for an
 * unknown contest.
 */
export const statsRoutes = {
  /**
   * `GET /api/contestStats/{contestId}`: attempts per minute (zero-filled, at most `STATS_MAX_POINTS`
   * points), the most attempted processes, the teams, the teams blocked and the attempts of the contest.
   */
  contestStats: defineRoute({
    method: 'GET',
    path: '/api/contestStats/:contestId',
    access: STAFF_ACCESS,
    tag: 'estadisticas',
    summary: 'Estadísticas de un concurso',
    params: contestIdParamsSchema,
    reply: okEnvelope(contestStatsSchema),
  }),
  /**
   * `GET /api/contestReport/{contestId}`: the statistics plus every team (level, coach, members,
   * attempts, status) and every disqualification with the judge or 'automático', oldest first.
   */
  contestReport: defineRoute({
    method: 'GET',
    path: '/api/contestReport/:contestId',
    access: STAFF_ACCESS,
    tag: 'estadisticas',
    summary: 'Reporte de un concurso',
    params: contestIdParamsSchema,
    reply: okEnvelope(contestReportSchema),
  }),
} as const;
