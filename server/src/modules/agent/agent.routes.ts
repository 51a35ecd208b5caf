import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AGENT_HEARTBEAT_MS,
  AGENT_POLL_MS,
  MESSAGES,
  agentAttemptsBodySchema,
  agentAttemptsResultSchema,
  agentConfigSchema,
  agentHeartbeatSchema,
  okEnvelope,
  idSchema,
} from '@concurso/shared';
import { Team } from '../teams/team.entity.js';
import { ADMIN_ACCESS } from '../../plugins/access.js';
import { HttpError } from '../../lib/http-error.js';
import { hashAgentKey, newAgentKey } from './agent-keys.js';
import { blockedNames, recordHeartbeat } from './agent.service.js';
import { AttemptWriter } from './attempt-writer.js';
import { toIsoDate } from '../board/board.service.js';
import { emitTeamUpdated } from '../../realtime/board-events.js';

/** The agent's side of the API (DESIGN.md section 6) and the admin's key generation. */
const agentRoutes: FastifyPluginAsyncZod = async (app) => {
  const attempts = new AttemptWriter(
    () => app.orm.em.fork(),
    (rows) => rows.forEach((row) => emitTeamUpdated(app.io, row)),
  );
  // Answer what is being written before the database closes.
  app.addHook('preClose', () => attempts.drained());

  /**
   * `POST /api/generateAgentKey/{teamId}` (admin): a new key for the team's agent, answered once in
   * `data.key` and stored only as its SHA-256; the previous key stops working at once.
   */
  app.post(
    '/generateAgentKey/:teamId',
    {
      config: { access: ADMIN_ACCESS },
      schema: {
        tags: ['agente'],
        summary: 'Genera la clave del agente de un equipo',
        params: z.object({ teamId: idSchema }),
        response: { 200: okEnvelope(z.object({ key: z.string(), teams_id: z.number().int() })) },
      },
    },
    async (request) => {
      const team = await app.orm.em.findOne(Team, request.params.teamId);
      if (!team) throw new HttpError(404, 'No se encontró el equipo.');
      const key = newAgentKey();
      team.agentKeyHash = hashAgentKey(key);
      await app.orm.em.flush();
      app.forgetAgentKeys(); // the previous key stops working at once, in every process
      return {
        success: true as const,
        data: { key, teams_id: team.id },
        message: MESSAGES.agentKeyGenerated,
      };
    },
  );

  /** `GET /api/agent/config` (agent key): the team, its contest and the contest's blocked names. */
  app.get(
    '/agent/config',
    {
      config: { access: 'agent' },
      schema: {
        tags: ['agente'],
        summary: 'Configuración del agente',
        response: { 200: okEnvelope(agentConfigSchema) },
      },
    },
    async (request) => {
      const em = app.orm.em;
      const principal = request.agentTeam!;
      const team = await em.findOneOrFail(Team, principal.id, { populate: ['contest'] });
      return {
        success: true as const,
        message: '',
        data: {
          team: { id: team.id, name: team.name, levels_id: principal.levels_id },
          contest: {
            id: team.contest.id,
            calendar: team.contest.calendar,
            date: toIsoDate(team.contest.date),
          },
          blocked: await blockedNames(em, principal.contests_id),
          poll_ms: AGENT_POLL_MS,
          heartbeat_ms: AGENT_HEARTBEAT_MS,
        },
      };
    },
  );

  /**
   * `POST /api/agent/attempts` (agent key) `{attempts: [{event_id, process, occurred_at}]}`: stores the
   * attempts, counting each `event_id` once per team, and pushes the team's row when the count moved.
   * Requests that arrive together are written in one transaction (`AttemptWriter`); the answer comes
   * after the commit. 401 when the team was deleted.
   */
  app.post(
    '/agent/attempts',
    {
      config: { access: 'agent' },
      schema: {
        tags: ['agente'],
        summary: 'Reporta intentos de procesos bloqueados',
        body: agentAttemptsBodySchema,
        response: { 200: okEnvelope(agentAttemptsResultSchema) },
      },
    },
    async (request) => {
      const result = await attempts.record(request.agentTeam!.id, request.body.attempts);
      return { success: true as const, data: result, message: MESSAGES.processed };
    },
  );

  /** `POST /api/agent/heartbeat` (agent key): keeps the team's `agent_online` true on the boards. */
  app.post(
    '/agent/heartbeat',
    {
      config: { access: 'agent' },
      schema: {
        tags: ['agente'],
        summary: 'Latido del agente',
        body: agentHeartbeatSchema.optional(),
        response: { 200: z.object({ success: z.literal(true), message: z.string() }) },
      },
    },
    async (request) => {
      const changed = await recordHeartbeat(app.orm.em, request.agentTeam!.id);
      if (changed) emitTeamUpdated(app.io, changed);
      return { success: true as const, message: '' };
    },
  );
};

export default agentRoutes;
