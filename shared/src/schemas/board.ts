import { z } from 'zod';

/** One row of the board (same fields as the `team.updated` event, DESIGN.md section 6). */
export const boardTeamSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  levels_id: z.number().int(),
  number_attempts: z.number().int(),
  status_team: z.object({ id: z.number().int(), status: z.string() }),
  agent_online: z.boolean(),
  version: z.number().int(),
});

/** Answer of `GET /api/teamAttempts`: the current contest's teams per level (SPEC.md section 7). */
export const teamAttemptsSchema = z.object({
  contest: z.object({ id: z.number().int(), calendar: z.string(), date: z.string() }).nullable(),
  basico: z.array(boardTeamSchema),
  intermedio: z.array(boardTeamSchema),
  avanzado: z.array(boardTeamSchema),
});
export type TeamAttempts = z.infer<typeof teamAttemptsSchema>;

/** One row of `GET /api/teamAttemptsLog/{teamId}`: what the agent reported, newest first. */
export const attemptLogRowSchema = z.object({
  id: z.number().int(),
  process: z.string(),
  killed: z.boolean(),
  /** The agent's clock, ISO 8601. */
  occurred_at: z.string(),
  /** The server's clock, ISO 8601. */
  received_at: z.string(),
});
export type AttemptLogRow = z.infer<typeof attemptLogRowSchema>;

/** One row of `GET /api/teamStatusLog/{teamId}`: a block or unblock, who and when, newest first. */
export const statusChangeRowSchema = z.object({
  id: z.number().int(),
  from: z.object({ id: z.number().int(), status: z.string() }),
  to: z.object({ id: z.number().int(), status: z.string() }),
  /** Null when the judge's account was deleted since. */
  user: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  at: z.string(),
});
export type StatusChangeRow = z.infer<typeof statusChangeRowSchema>;

/** Most levels one socket may ask to follow; the boards follow every level by asking none. */
export const SOCKET_MAX_LEVELS = 20;

/**
 * Handshake `auth` of a staff socket (DESIGN.md section 6, `SocketAuth`): the JWT and, optionally, the
 * levels to follow. Strict (issue 10: a handshake asking for 100,000 levels held memory for good):
 * nothing else is accepted, ids are positive integers, at most `SOCKET_MAX_LEVELS` distinct ones;
 * the server also refuses ids that are not real levels.
 */
export const socketAuthSchema = z
  .object({
    token: z.string().min(1).max(4096),
    levels: z
      .array(z.number().int().positive().max(2_147_483_647))
      .min(1)
      .max(SOCKET_MAX_LEVELS)
      .refine((ids) => new Set(ids).size === ids.length)
      .optional(),
  })
  .strict();
