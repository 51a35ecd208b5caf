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
