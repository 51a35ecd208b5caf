import { z } from 'zod';
import { contestRowSchema } from './catalogs.js';
import { embeddedRowSchema, rowIntSchema } from './common.js';
import { NEW_PROGRAM_RECENT_MS } from '../constants.js';

/**
 * Why the boards flag a team's agent (docs/design.md section 6a): `sin_senal`, it fell silent
 * during the active contest without saying so (the tamper alert: killed, unplugged, cut off);
 * `detenido`, it was stopped the documented way and said so; `sin_reanudar`, stopped during the active
 * contest and not back after the silent agent's window (`AGENT_OFFLINE_AFTER_MS`): a stop is what a
 * cheater wants, so it then weighs as much as a silence (docs/design.md section 6a, "a stop during the
 * active contest is an alert too once the window passes"). Cleared when it beats again.
 */
export const AGENT_ALERTS = ['sin_senal', 'detenido', 'sin_reanudar'] as const;
export type AgentAlert = (typeof AGENT_ALERTS)[number];

/**
 * Whether `alert` is an alarm (red, the «Alerta sonora» tone, the projector's red mark): `sin_senal`
 * or `sin_reanudar`. A `detenido` still within the window is only marked.
 */
export function isAgentAlarm(alert: AgentAlert | string | null | undefined): boolean {
  return alert === 'sin_senal' || alert === 'sin_reanudar';
}

/** A stored alert (`teams.agent_alert`) as an `AgentAlert`; anything else, or none, is null. */
export function agentAlertOf(value: string | null | undefined): AgentAlert | null {
  return (AGENT_ALERTS as readonly string[]).includes(value ?? '') ? (value as AgentAlert) : null;
}

/**
 * The agent's badge on the boards: 'Agente en línea', 'Agente sin señal' (the tamper
 * alert), 'Agente detenido sin reanudar' (a stop of the active contest past the window), 'Agente
 * detenido', or 'Agente sin conexión' (offline with no alert: not started yet, or its contest is not
 * the active one).
 */
export function agentBadgeText(team: { agent_online: boolean; agent_alert: AgentAlert | null }): string {
  if (team.agent_online) return 'Agente en línea';
  if (team.agent_alert === 'sin_senal') return 'Agente sin señal';
  if (team.agent_alert === 'sin_reanudar') return 'Agente detenido sin reanudar';
  if (team.agent_alert === 'detenido') return 'Agente detenido';
  return 'Agente sin conexión';
}

/**
 * One row of the live board: what each tuple of a `board.frame` stands for (board-frame.ts) and
 * what `GET /api/teamAttempts` lists (docs/design.md section 6). `agent_online` is true while the team's agent sent a heartbeat in the last
 * `AGENT_OFFLINE_AFTER_MS`; `version` grows with every change of the team, and a client drops an event
 * older than what it holds.
 */
export const boardTeamSchema = z.object({
  id: rowIntSchema,
  name: z.string(),
  levels_id: rowIntSchema,
  number_attempts: rowIntSchema,
  status_team: embeddedRowSchema('status'),
  agent_online: z.boolean(),
  /** The agent's alert while it is offline, else null. */
  agent_alert: z.enum(AGENT_ALERTS).nullable().default(null),
  version: rowIntSchema,
  /**
   * «programa nuevo» (`NEW_PROGRAM_AFTER_MS`): the newest program only this team of the contest has
   * run, first seen after the contest's first minutes, its name and latest reported start (ms since
   * the epoch, the agent's clock); shown while that start is within `NEW_PROGRAM_RECENT_MS`
   * (`isRecentNewProgram`). Absent or null when there is none.
   */
  new_program: z.object({ name: z.string(), at: z.number() }).nullable().optional(),
});
export type BoardTeam = z.infer<typeof boardTeamSchema>;

/**
 * Answer of `GET /api/teamAttempts`: the active contest (docs/design.md section 3; null when no contest is
 * active, and the boards say `MESSAGES.noActiveContest`) and its teams per level (docs/spec.md section 7).
 */
export const teamAttemptsSchema = z.object({
  contest: contestRowSchema.nullable(),
  basico: z.array(boardTeamSchema),
  intermedio: z.array(boardTeamSchema),
  avanzado: z.array(boardTeamSchema),
});
export type TeamAttempts = z.infer<typeof teamAttemptsSchema>;

/** One row of `GET /api/teamAttemptsLog/{teamId}`: what the agent reported, newest first. */
export const attemptLogRowSchema = z.object({
  id: rowIntSchema,
  process: z.string(),
  /** The file name it ran as when a renamed copy was caught by its fingerprint, else null. */
  executable: z.string().nullable(),
  /** What ran its program when a loader or an interpreter did (`python3`); else null or absent. */
  via: z.string().nullable().optional(),
  killed: z.boolean(),
  /** The agent's clock, ISO 8601. */
  occurred_at: z.string(),
  /** The server's clock, ISO 8601. */
  received_at: z.string(),
});
export type AttemptLogRow = z.infer<typeof attemptLogRowSchema>;

/** One row of `GET /api/teamStatusLog/{teamId}`: a block or unblock, who and when, newest first. */
export const statusChangeRowSchema = z.object({
  id: rowIntSchema,
  from: embeddedRowSchema('status'),
  to: embeddedRowSchema('status'),
  /** Null for an automatic block (`automatic`) or when the judge's account was deleted since. */
  user: embeddedRowSchema('name').nullable(),
  /** True when the server blocked the team on reaching the contest's `max_attempts`. */
  automatic: z.boolean(),
  at: z.string(),
});
export type StatusChangeRow = z.infer<typeof statusChangeRowSchema>;

/** Most levels one socket may ask to follow; the boards follow every level by asking none. */
export const SOCKET_MAX_LEVELS = 20;

/**
 * Handshake `auth` of a staff socket (docs/design.md section 6, `SocketAuth`): the JWT and, optionally, the
 * levels to follow. Strict (a handshake asking for 100,000 levels held memory for good):
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

/**
 * Whether a board row's «programa nuevo» mark shows at `now` (ms since the epoch): its latest start is
 * less than `NEW_PROGRAM_RECENT_MS` old. The server leaves older marks out of what it sends, and a
 * screen hides a mark that grew old while it was open.
 */
export function isRecentNewProgram(
  mark: { at: number } | null | undefined,
  now: number,
): mark is { name: string; at: number } {
  return mark != null && now - mark.at < NEW_PROGRAM_RECENT_MS;
}
