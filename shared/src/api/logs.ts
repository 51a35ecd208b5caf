import { attemptLogRowSchema, statusChangeRowSchema } from '../schemas/board.js';
import { teamListRoute } from './teams.js';

const tag = 'tablero';

/**
 * The two logs DESIGN.md section 4 keeps beyond the spec, for admins and judges: newest first, at most
 * 1,000 rows; 404 for an unknown team.
 */
export const logsRoutes = {
  /** A team's attempts as its agent reported them: `{id, process, killed, occurred_at, received_at}`. */
  attempts: teamListRoute('teamAttemptsLog', tag, 'Intentos de un equipo', attemptLogRowSchema),
  /** A team's blocks and unblocks with the judge and the time: `{id, from, to, user, at}`. */
  statusChanges: teamListRoute(
    'teamStatusLog',
    tag,
    'Bloqueos y desbloqueos de un equipo',
    statusChangeRowSchema,
  ),
} as const;
