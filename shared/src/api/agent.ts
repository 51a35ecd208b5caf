import { z } from 'zod';
import { idSchema } from '../schemas/common.js';
import { okEnvelope } from '../schemas/api.js';
import {
  agentAttemptsBodySchema,
  agentAttemptsResultSchema,
  agentConfigSchema,
  agentHeartbeatSchema,
  agentKeySchema,
  agentObservedBodySchema,
  agentObservedResultSchema,
} from '../schemas/agent.js';
import { agentStoppedSchema } from '../schemas/lab.js';
import { agentCaptureSchema } from '../schemas/captures.js';
import { ADMIN_ACCESS } from './access.js';
import { defineRoute } from './route.js';

/**
 * The agent's side of the API and the admin's key generation (docs/design.md section 6). The agent calls
 * carry the team's agent key as the bearer token (`access: 'agent'`; 401 `MESSAGES.agentKeyInvalid` otherwise).
 */
export const agentRoutes = {
  /**
   * `POST /api/generateAgentKey/{teamId}` (admin): a new key for the team's agent, answered once in
   * `data.key` and stored only as its SHA-256; the previous key stops working at once. 404 unknown team.
   * `data.public_url`: the server's `PUBLIC_URL` (or null), for the key dialog's install commands.
   */
  generateKey: defineRoute({
    method: 'POST',
    path: '/api/generateAgentKey/:teamId',
    access: ADMIN_ACCESS,
    tag: 'agente',
    summary: 'Genera la clave del agente de un equipo',
    params: z.object({ teamId: idSchema }),
    reply: okEnvelope(agentKeySchema),
  }),
  /**
   * `GET /api/agent/config`: the team, its contest (with `active`), the contest's blocked names (none
   * while the contest is not the active one, docs/design.md section 3), the fingerprints, `observe`, the
   * agent's periods, `policy_version` and the network policy (`network`: the allowed sites while the
   * contest is active).
   */
  config: defineRoute({
    method: 'GET',
    path: '/api/agent/config',
    access: 'agent',
    tag: 'agente',
    summary: 'Configuración del agente',
    reply: okEnvelope(agentConfigSchema),
  }),
  /**
   * `POST /api/agent/attempts` `{attempts: [{event_id, process, occurred_at, killed?, sha256?,
   * executable?, match?}]}`: stores them, each `event_id` once per team, and answers after the commit
   * which ids are stored, how many were new and the team's total. 401 when the team was deleted; 503 when the database is down.
   */
  attempts: defineRoute({
    method: 'POST',
    path: '/api/agent/attempts',
    access: 'agent',
    tag: 'agente',
    summary: 'Reporta intentos de procesos bloqueados',
    body: agentAttemptsBodySchema,
    reply: okEnvelope(agentAttemptsResultSchema),
  }),
  /**
   * `POST /api/agent/observed` `{observed: [{name, sha256, first_seen, last_seen, starts}]}`: adds the
   * executables that started on the team's machine to its contest's inventory (one row per team, name and
   * fingerprint: first_seen the earliest, last_seen the latest, count summed and saturating). Stores nothing
   * (`stored: 0`) when the contest's `observe_processes` is off. Bounds (docs/design.md section 6a): 409
   * `MESSAGES.agentContestInactive` when the team's contest is not the active one; 429
   * `MESSAGES.observedRateLimited` (with `Retry-After`, s; nothing stored) past
   * `OBSERVED_LIMITS.reportsPerMinute`; 429 `MESSAGES.observedCapReached` when new programs were left out
   * past `OBSERVED_LIMITS.maxPerTeam` (the rest was stored).
   */
  observed: defineRoute({
    method: 'POST',
    path: '/api/agent/observed',
    access: 'agent',
    tag: 'agente',
    summary: 'Reporta los programas que se iniciaron en la máquina',
    body: agentObservedBodySchema,
    reply: okEnvelope(agentObservedResultSchema),
  }),
  /**
   * `POST /api/agent/heartbeat` `{hostname?, version?, os?, clock?, policy_version?, network_version?,
   * network_error?}`: keeps the team's `agent_online` true on the boards; with `hostname`, records the
   * machine for the lab board (the network policy in force), with its presence and
   * source address. Rate-limited per key and machine (`AGENT_PRESENCE_LIMITS`: 429 with `Retry-After`).
   */
  heartbeat: defineRoute({
    method: 'POST',
    path: '/api/agent/heartbeat',
    access: 'agent',
    tag: 'agente',
    summary: 'Latido del agente',
    body: agentHeartbeatSchema.optional(),
    reply: z.object({ success: z.literal(true), message: z.string() }),
  }),
  /**
   * `POST /api/agent/stopped`: the agent is being stopped the documented way (its service
   * stops). The boards show it offline at once with the `detenido` alert, and during the active contest
   * the log says `agente detenido` instead of raising «sin señal»; not started again within the silent
   * agent's window, it becomes the alarm `sin_reanudar` («Agente detenido sin reanudar»). `{hostname?}`
   * (`agentStoppedSchema`): the machine that stops; without it, every machine of the team. Rate-limited
   * per key and machine like the heartbeat (`AGENT_PRESENCE_LIMITS`: 429 with `Retry-After`).
   */
  stopped: defineRoute({
    method: 'POST',
    path: '/api/agent/stopped',
    access: 'agent',
    tag: 'agente',
    summary: 'El agente avisa que se detiene',
    body: agentStoppedSchema.optional(),
    reply: z.object({ success: z.literal(true), message: z.string() }),
  }),
  /**
   * `POST /api/agent/capture` (`agentCaptureSchema`): one screen capture, for a recent attempt of the
   * team (`event_id`, stored in the active contest in the last `CAPTURE_ATTEMPT_WINDOW_MS`) or for an
   * open «Ver pantalla» request of it (`request_id`, at most `CAPTURE_REQUEST_TTL_MS` old). Answers 204
   * once stored (the same capture again is stored once). 404 `MESSAGES.captureNotExpected` when it
   * matches neither; 400 `MESSAGES.captureInvalidImage` when the bytes are no JPEG/WebP image; 413
   * `MESSAGES.captureTooLarge` past `CAPTURE_MAX_BYTES`; 429 `MESSAGES.captureRateLimited` (with
   * `Retry-After`, s) past the key's captures per minute; 409 `MESSAGES.agentContestInactive`.
   */
  capture: defineRoute({
    method: 'POST',
    path: '/api/agent/capture',
    access: 'agent',
    tag: 'agente',
    summary: 'Sube una captura de la pantalla de la máquina',
    body: agentCaptureSchema,
    reply: z.unknown().meta({ description: 'Sin contenido: responde 204 cuando la guardó.' }),
  }),
} as const;
