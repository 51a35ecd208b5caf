import { z } from 'zod';
import { AGENT_MAX_BATCH } from '../constants.js';

/**
 * One attempt reported by an agent (DESIGN.md section 6): `event_id` is unique per team and
 * makes the report idempotent; `occurred_at` is the agent's clock (ISO 8601).
 */
export const agentAttemptSchema = z.object({
  event_id: z
    .string()
    .min(8)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, { error: 'event_id: letras, dígitos, "-" o "_"' }),
  process: z.string().trim().min(1).max(255),
  occurred_at: z.iso.datetime({ offset: true }),
  /** False when the agent could not end the process (it still counts as an attempt). Default true. */
  killed: z.boolean().optional(),
});
export type AgentAttempt = z.infer<typeof agentAttemptSchema>;

/** Body of `POST /api/agent/attempts`: 1 to `AGENT_MAX_BATCH` attempts. */
export const agentAttemptsBodySchema = z.object({
  attempts: z.array(agentAttemptSchema).min(1).max(AGENT_MAX_BATCH),
});
export type AgentAttemptsBody = z.infer<typeof agentAttemptsBodySchema>;

/** Answer data of `POST /api/agent/attempts`: which event ids are now stored (new or already). */
export const agentAttemptsResultSchema = z.object({
  accepted: z.array(z.string()),
  counted: z.number().int(),
  number_attempts: z.number().int(),
});
export type AgentAttemptsResult = z.infer<typeof agentAttemptsResultSchema>;

/** Answer data of `GET /api/agent/config`. */
export const agentConfigSchema = z.object({
  team: z.object({ id: z.number().int(), name: z.string(), levels_id: z.number().int() }),
  contest: z.object({ id: z.number().int(), calendar: z.string(), date: z.string() }),
  blocked: z.array(z.string()),
  poll_ms: z.number().int(),
  heartbeat_ms: z.number().int(),
});
export type AgentConfig = z.infer<typeof agentConfigSchema>;

/** Body of `POST /api/agent/heartbeat` (all optional; for the logs and the audit). */
export const agentHeartbeatSchema = z
  .object({
    hostname: z.string().max(255).optional(),
    version: z.string().max(50).optional(),
  })
  .default({});
export type AgentHeartbeat = z.infer<typeof agentHeartbeatSchema>;
