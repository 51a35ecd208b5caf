import type { FastifyInstance } from 'fastify';
import {
  AGENT_CONFIG_FINGERPRINT_BYTES,
  AGENT_HEARTBEAT_MS,
  AGENT_POLL_MS,
  MESSAGES,
  agentRoutes as api,
} from '@concurso/shared';
import { addRoute } from '../../lib/route.js';
import { HttpError } from '../../lib/http-error.js';
import { contestProcesses } from '../contests/index.js';
import { hashAgentKey, newAgentKey } from './agent-keys.js';
import { agentTeam, setAgentKeyHash } from './agent.repository.js';
import { recordHeartbeat } from './agent.service.js';
import { AttemptWriter } from './attempt-writer.js';
import { FingerprintLearner } from './fingerprint-learner.js';
import { agentFingerprints } from '../processes/index.js';

/**
 * The agent's side of the API and the admin's key generation (shared/src/api/agent.ts, DESIGN.md
 * section 6). `fingerprintQuorum`: teams whose claims make a fingerprint apply to every machine
 * (`FINGERPRINT_QUORUM`, DESIGN.md section 6a).
 */
export default async function agentRoutes(
  app: FastifyInstance,
  options: { fingerprintQuorum: number },
): Promise<void> {
  // Requests that arrive together are written in one transaction; each is answered after its commit,
  // and the teams whose count moved are pushed then.
  const fork = () => app.orm.em.fork();
  const attempts = new AttemptWriter(
    fork,
    (rows) => rows.forEach((row) => app.board.teamUpdated(row)),
    2,
    new FingerprintLearner(fork, (err) => app.log.warn({ err }, 'No se pudieron aprender huellas')),
  );
  // Answer what is being written before the database closes.
  app.addHook('preClose', () => attempts.drained());

  addRoute(app, api.generateKey, async (request) => {
    const { teamId } = request.params;
    const key = newAgentKey();
    if (!(await setAgentKeyHash(app.orm.em, teamId, hashAgentKey(key)))) {
      throw new HttpError(404, 'No se encontró el equipo.');
    }
    app.forgetAgentKeys(); // the previous key stops working at once, in every process
    return { success: true as const, data: { key, teams_id: teamId }, message: MESSAGES.agentKeyGenerated };
  });

  // The level and contest of the key's team as the guard found them; the contest's own row for its date.
  // Only the active contest's agents block anything (DESIGN.md section 3): a team of another contest
  // gets an empty set, and its agent picks up the real one at the refresh after its contest is activated.
  // Issue 14: with the set go the fingerprints of its processes (`[{process, sha256}]`), so a renamed
  // copy is caught too; issue 21: only those that apply to every machine (confirmed or at quorum) and
  // this team's own claims, within a byte budget. `observe` only while the contest is active and observes.
  addRoute(app, api.config, async (request) => {
    const principal = request.agentTeam!;
    const team = await agentTeam(app.orm.em, principal.id);
    const blocked = team.contest.active ? await contestProcesses(app.orm.em, principal.contests_id) : [];
    const fingerprints = await agentFingerprints(app.orm.em, {
      contestId: principal.contests_id,
      teamId: principal.id,
      processIds: blocked.map((row) => row.processes_id),
      quorum: options.fingerprintQuorum,
      budgetBytes: AGENT_CONFIG_FINGERPRINT_BYTES,
    });
    return {
      success: true as const,
      message: '',
      data: {
        team: { id: principal.id, name: team.name, levels_id: principal.levels_id },
        contest: team.contest,
        blocked: blocked.map((row) => row.processes.name),
        fingerprints,
        observe: team.contest.active && team.contest.observe_processes,
        poll_ms: AGENT_POLL_MS,
        heartbeat_ms: AGENT_HEARTBEAT_MS,
      },
    };
  });

  addRoute(app, api.attempts, async (request) => ({
    success: true as const,
    data: await attempts.record(request.agentTeam!.id, request.body.attempts),
    message: MESSAGES.processed,
  }));

  addRoute(app, api.heartbeat, async (request) => {
    const changed = await recordHeartbeat(app.orm.em, request.agentTeam!.id);
    if (changed) app.board.teamUpdated(changed);
    return { success: true as const, message: '' };
  });
}
