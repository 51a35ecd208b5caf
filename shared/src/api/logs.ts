import { okEnvelope } from '../schemas/api.js';
import { attemptLogRowSchema, statusChangeRowSchema } from '../schemas/board.js';
import { chainVerdictSchema, chainVerifyQuerySchema } from '../schemas/chain.js';
import { CONTEST_LOG_LIMIT, contestLogQuerySchema, contestLogSchema } from '../schemas/logs.js';
import { STAFF_ACCESS } from './access.js';
import { defineRoute } from './route.js';
import { teamListRoute } from './teams.js';

const tag = 'tablero';

/**
 * The logs docs/design.md section 4 keeps beyond the spec, for admins and judges. A team's two logs: newest
 * first, at most 1,000 rows; 404 for an unknown team. And the contest log of `/bitacora`.
 */
export const logsRoutes = {
  /** A team's attempts as its agent reported them: `{id, process, killed, occurred_at, received_at}`. */
  attempts: teamListRoute('teamAttemptsLog', tag, 'Intentos de un equipo', attemptLogRowSchema),
  /** A team's blocks and unblocks with the judge and the time: `{id, from, to, user, automatic, at}`. */
  statusChanges: teamListRoute(
    'teamStatusLog',
    tag,
    'Bloqueos y desbloqueos de un equipo',
    statusChangeRowSchema,
  ),
  /**
   * `GET /api/contestLog?levels_id&teams_id&process` (admins and judges):
   * every attempt, status change, agent event, message and change of the allowed sites
   * of the ACTIVE contest in one list, newest first, filtered by the
   * optional query string (`contestLogQuerySchema`; 422 on a bad id), at most `CONTEST_LOG_LIMIT` rows
   * (`truncated` when more matched). No active contest: `{contest: null, rows: [], truncated: false}`.
   */
  contestLog: defineRoute({
    method: 'GET',
    path: '/api/contestLog',
    access: STAFF_ACCESS,
    tag,
    summary: `Bitácora del concurso activo: intentos, estatus, agentes, mensajes y red (máximo ${CONTEST_LOG_LIMIT})`,
    querystring: contestLogQuerySchema,
    reply: okEnvelope(contestLogSchema),
  }),
  /**
   * `GET /api/contestLog/verify?contests_id` (admins and judges): recomputes the contest's chained log
   * (server/src/modules/chain/README.md) from its rows, a page at a time, and answers
   * `{contests_id, ok: true, count}` or `{contests_id, ok: false, count, first_bad: {seq, kind, ref, reason}}`.
   * `contests_id` left out: the active contest (none: `{contests_id: null, ok: true, count: 0}`); 404 for
   * an unknown one.
   */
  verifyChain: defineRoute({
    method: 'GET',
    path: '/api/contestLog/verify',
    access: STAFF_ACCESS,
    tag,
    summary: 'Verifica la cadena de la bitácora de un concurso (el activo por omisión)',
    querystring: chainVerifyQuerySchema,
    reply: okEnvelope(chainVerdictSchema),
  }),
} as const;
