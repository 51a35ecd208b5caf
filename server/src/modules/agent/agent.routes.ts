import type { FastifyInstance } from 'fastify';
import { MESSAGES, agentRoutes as api, labRoutes } from '@concurso/shared';
import { addRoute } from '../../lib/route.js';
import { HttpError } from '../../lib/http-error.js';
import { hashAgentKey, newAgentKey } from './agent-keys.js';
import { agentConfig, type PolicyOptions } from './agent-config.js';
import { setAgentKeyHash } from '../teams/index.js';
import { labBoard } from './lab.service.js';
import { LabPolicyGrace } from './lab-policy-grace.js';
import {
  presenceOptions,
  presencePeriodMs,
  recordAgentStopped,
  recordHeartbeat,
  removeMachine,
} from './agent.service.js';
import { PresenceLimiter, type PresenceCall } from './presence-limiter.js';
import { ATTEMPT_GROUPS_AT_ONCE, AttemptWriter } from './attempt-writer.js';
import { AttemptThread } from './attempt-thread.js';
import { FingerprintLearner } from './fingerprint-learner.js';

/**
 * The agent's side of the API and the admin's key generation (shared/src/api/agent.ts, docs/design.md
 * section 6). `options`: how the agents' policies are built (`PolicyOptions`: the fingerprints'
 * quorum, `FINGERPRINT_QUORUM`, docs/design.md section 6a; the heartbeat period); `publicUrl`: the server's
 * `PUBLIC_URL` (an origin, or null when unset), answered with each new key for the install commands;
 * `databaseUrl`: the app's `DATABASE_URL`, for the attempts' worker thread's own pool.
 */
export default async function agentRoutes(
  app: FastifyInstance,
  options: PolicyOptions & { offlineAfterMs: number; publicUrl: string | null; databaseUrl: string },
): Promise<void> {
  // Requests that arrive together are written in one transaction; each is answered after its commit,
  // and the teams whose count moved are pushed then.
  const fork = () => app.orm.em.fork();
  // The groups' statements run on the attempts' worker thread, on a bare pool of its own
  // (attempt-thread.ts and attempt-writer.ts say why).
  const thread = new AttemptThread(options.databaseUrl, ATTEMPT_GROUPS_AT_ONCE);
  const attempts = new AttemptWriter(
    (group) => thread.commit(group),
    fork,
    (rows) => rows.forEach((row) => app.board.teamUpdated(row)),
    ATTEMPT_GROUPS_AT_ONCE,
    new FingerprintLearner(
      fork,
      (err) => app.log.warn({ err }, 'No se pudieron aprender huellas'),
      Date.now,
      // A new claim changes its team's policy, and every team's at quorum.
      () => app.agentChannel.policyChanged(),
      options.quorum,
    ),
  );
  // The thread loads with the first call to these routes (a lab machine's first beat, config or key
  // check, before its attempts), not under the first group, nor when the app starts: an app no lab
  // machine reaches never needs it (the test suite starts hundreds of apps, and a thread's load is
  // about half a second of CPU each).
  app.addHook('onRequest', async () => {
    void thread.open();
  });
  // Answer what is being written before the database closes, then end the thread and its pool.
  app.addHook('preClose', async () => {
    await attempts.drained();
    await thread.close();
  });

  // Presence per machine (docs/design.md section 6a): its rules, and the calls one key may make.
  const presence = presenceOptions(options.offlineAfterMs);
  const presenceLimiter = new PresenceLimiter(presencePeriodMs(options.offlineAfterMs), app.redis);
  /** 429 with `Retry-After` past `AGENT_PRESENCE_LIMITS` for this key and machine. */
  const limitPresence = async (call: PresenceCall, teamId: number, hostname: string | undefined) => {
    const wait = await presenceLimiter.take(call, teamId, hostname ?? '');
    if (wait !== null)
      throw new HttpError(429, MESSAGES.agentPresenceRateLimited, undefined, Math.ceil(wait / 1000));
  };

  addRoute(app, api.generateKey, async (request) => {
    const { teamId } = request.params;
    const key = newAgentKey();
    if (!(await setAgentKeyHash(app.orm.em, teamId, hashAgentKey(key)))) {
      throw new HttpError(404, 'No se encontró el equipo.');
    }
    app.forgetAgentKeys(); // the previous key stops working at once, in every process
    app.agentChannel.closeTeam(teamId); // and its machines' sockets close
    return {
      success: true as const,
      data: { key, teams_id: teamId, public_url: options.publicUrl },
      message: MESSAGES.agentKeyGenerated,
    };
  });

  // The team's policy (agent-config.ts), the same the push channel sends.
  addRoute(app, api.config, async (request) => ({
    success: true as const,
    message: '',
    data: await agentConfig(app.orm.em, request.agentTeam!.id, options),
  }));

  // The two hot routes of 500 agents run without a request-scoped EntityManager
  // (`entityContext: false`), on the bare pool; the rare transitions fork the ORM.
  addRoute(
    app,
    api.attempts,
    async (request) => ({
      success: true as const,
      data: await attempts.record(request.agentTeam!.id, request.body.attempts),
      message: MESSAGES.processed,
    }),
    { entityContext: false },
  );

  addRoute(
    app,
    api.heartbeat,
    async (request) => {
      // The machine it beats from, for the lab board.
      const {
        hostname,
        os,
        version,
        clock,
        policy_version,
        network_version,
        network_error,
        network_unresolved,
        network_filter,
      } = request.body ?? {};
      const teamId = request.agentTeam!.id;
      await limitPresence('heartbeat', teamId, hostname);
      const offset = clock ? Date.parse(clock) - Date.now() : null;
      const report = hostname
        ? {
            hostname,
            os: os ?? '',
            version: version ?? '',
            policyVersion: policy_version ?? '',
            networkVersion: network_version ?? null,
            networkError: network_error ?? null,
            // Bounded by the schema (a few host names, each at most 253 characters, none with a space).
            networkUnresolved: network_unresolved?.length ? network_unresolved.join(' ') : null,
            networkFilter: network_filter ?? null,
            clockOffsetMs: offset === null ? null : Math.max(-(2 ** 31), Math.min(2 ** 31 - 1, offset)),
            // The source address as the `TRUST_PROXY` rule reads it (shown on /laboratorio).
            address: request.ip.slice(0, 45),
          }
        : undefined;
      const changed = await recordHeartbeat(app.sql, fork, teamId, presence, report);
      if (changed) app.board.teamUpdated(changed);
      return { success: true as const, message: '' };
    },
    { entityContext: false },
  );

  // The lab board (docs/design.md section 6a): the active contest's machines and which teams are ready;
  // a machine a policy change has not reached yet for a few seconds is not late (`LabPolicyGrace`).
  const policyGrace = new LabPolicyGrace();
  addRoute(app, labRoutes.machines, async () => ({
    success: true as const,
    message: '',
    data: await labBoard(app.orm.em, options, options.offlineAfterMs, new Date(), policyGrace),
  }));

  // An agent stopped the documented way says so, so its silence is not taken for tampering;
  // it names its machine (presence per machine).
  addRoute(app, api.stopped, async (request) => {
    const teamId = request.agentTeam!.id;
    const hostname = request.body?.hostname;
    await limitPresence('stopped', teamId, hostname);
    const changed = await recordAgentStopped(app.orm.em, teamId, presence, hostname, request.ip.slice(0, 45));
    if (changed) app.board.teamUpdated(changed);
    return { success: true as const, message: '' };
  });

  // An admin forgets a machine of the lab board (its alert with it).
  addRoute(app, labRoutes.removeMachine, async (request) => {
    const changed = await removeMachine(app.orm.em, request.body.id, options.offlineAfterMs);
    if (changed === undefined) throw new HttpError(404, MESSAGES.labMachineNotFound);
    if (changed) app.board.teamUpdated(changed);
    return { success: true as const, message: MESSAGES.labMachineRemoved };
  });
}
