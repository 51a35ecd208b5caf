import { z } from 'zod';
import { okEnvelope } from '../schemas/api.js';
import { attemptLogRowSchema, statusChangeRowSchema } from '../schemas/board.js';
import { STAFF_ACCESS } from './access.js';
import { defineRoute } from './route.js';
import { teamIdParamsSchema } from './teams.js';

const tag = 'tablero';

/**
 * The two logs DESIGN.md section 4 keeps beyond the spec, for admins and judges: newest first, at most
 * 1,000 rows; 404 for an unknown team.
 */
export const logsRoutes = {
  /** A team's attempts as its agent reported them: `{id, process, killed, occurred_at, received_at}`. */
  attempts: defineRoute({
    method: 'GET',
    path: '/api/teamAttemptsLog/:teamId',
    access: STAFF_ACCESS,
    tag,
    summary: 'Intentos de un equipo',
    params: teamIdParamsSchema,
    reply: okEnvelope(z.array(attemptLogRowSchema)),
  }),
  /** A team's blocks and unblocks with the judge and the time: `{id, from, to, user, at}`. */
  statusChanges: defineRoute({
    method: 'GET',
    path: '/api/teamStatusLog/:teamId',
    access: STAFF_ACCESS,
    tag,
    summary: 'Bloqueos y desbloqueos de un equipo',
    params: teamIdParamsSchema,
    reply: okEnvelope(z.array(statusChangeRowSchema)),
  }),
} as const;
