import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/mysql';
import {
  AGENT_CONFIG_FINGERPRINT_BYTES,
  AGENT_HEARTBEAT_MS,
  AGENT_POLL_MS,
  type AgentConfig,
} from '@concurso/shared';
import { contestProcesses } from '../contests/index.js';
import { agentFingerprints } from '../processes/index.js';
import { agentTeam } from './agent.repository.js';

/**
 * The policy team `teamId`'s agents enforce, as `GET /api/agent/config` answers it and the push
 * channel sends it (issue 24). Only the active contest's agents block anything (DESIGN.md section 3):
 * a team of another contest gets an empty set. With the set go the fingerprints of its processes
 * (issue 14): those that apply to every machine (confirmed or at `quorum`) and this team's own claims,
 * within `AGENT_CONFIG_FINGERPRINT_BYTES` (issue 21, DESIGN.md section 6a). `observe` only while the
 * contest is active and observes. `policy_version` is a digest of all that, so two equal policies have
 * one version whoever computed them.
 * @throws NotFoundError when the team no longer exists.
 */
export async function agentConfig(em: EntityManager, teamId: number, quorum: number): Promise<AgentConfig> {
  const team = await agentTeam(em, teamId);
  const blocked = team.contest.active ? await contestProcesses(em, team.contest.id) : [];
  const fingerprints = await agentFingerprints(em, {
    contestId: team.contest.id,
    teamId,
    processIds: blocked.map((row) => row.processes_id),
    quorum,
    budgetBytes: AGENT_CONFIG_FINGERPRINT_BYTES,
  });
  const names = blocked.map((row) => row.processes.name);
  const observe = team.contest.active && team.contest.observe_processes;
  return {
    team: { id: teamId, name: team.name, levels_id: team.levelsId },
    contest: team.contest,
    blocked: names,
    fingerprints,
    observe,
    poll_ms: AGENT_POLL_MS,
    heartbeat_ms: AGENT_HEARTBEAT_MS,
    policy_version: createHash('sha256')
      .update(JSON.stringify([team.contest.id, team.contest.active, observe, names, fingerprints]))
      .digest('hex')
      .slice(0, 16),
  };
}
