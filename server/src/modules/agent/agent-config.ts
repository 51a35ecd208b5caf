import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/mysql';
import { NotFoundError } from '@mikro-orm/core';
import {
  AGENT_CONFIG_FINGERPRINT_BYTES,
  AGENT_HEARTBEAT_MS,
  AGENT_POLL_MS,
  type AgentConfig,
} from '@concurso/shared';
import { contestProcesses } from '../contests/index.js';
import { agentFingerprintsByTeam } from '../processes/index.js';
import { agentTeams } from './agent.repository.js';

/**
 * The policy team `teamId`'s agents enforce, as `GET /api/agent/config` answers it and the push
 * channel sends it (issue 24); see `agentConfigs`.
 * @throws NotFoundError when the team no longer exists.
 */
export async function agentConfig(em: EntityManager, teamId: number, quorum: number): Promise<AgentConfig> {
  const config = (await agentConfigs(em, [teamId], quorum)).get(teamId);
  if (!config) throw new NotFoundError(`Team ${teamId} not found`);
  return config;
}

/**
 * The policies of teams `teamIds` (those that still exist), in a few queries whatever their number: the
 * teams, then per contest its blocked set and its fingerprints (issue 24: every connected agent gets
 * its own after a change). Only the active contest's agents block anything (DESIGN.md section 3): a
 * team of another contest gets an empty set. With the set go the fingerprints of its processes (issue
 * 14): those that apply to every machine (confirmed or at `quorum`) and the team's own claims, within
 * `AGENT_CONFIG_FINGERPRINT_BYTES` (issue 21, DESIGN.md section 6a). `observe` only while the contest
 * is active and observes. `policy_version` is a digest of all that, so two equal policies have one
 * version whoever computed them.
 */
export async function agentConfigs(
  em: EntityManager,
  teamIds: readonly number[],
  quorum: number,
): Promise<Map<number, AgentConfig>> {
  const teams = await agentTeams(em, teamIds);
  const configs = new Map<number, AgentConfig>();
  for (const contestId of new Set(teams.map((team) => team.contest.id))) {
    const mine = teams.filter((team) => team.contest.id === contestId);
    const contest = mine[0]!.contest;
    const blocked = contest.active ? await contestProcesses(em, contestId) : [];
    const fingerprints = await agentFingerprintsByTeam(em, {
      contestId,
      teamIds: mine.map((team) => team.id),
      processIds: blocked.map((row) => row.processes_id),
      quorum,
      budgetBytes: AGENT_CONFIG_FINGERPRINT_BYTES,
    });
    const names = blocked.map((row) => row.processes.name);
    const observe = contest.active && contest.observe_processes;
    for (const team of mine) {
      const own = fingerprints.get(team.id) ?? [];
      configs.set(team.id, {
        team: { id: team.id, name: team.name, levels_id: team.levelsId },
        contest,
        blocked: names,
        fingerprints: own,
        observe,
        poll_ms: AGENT_POLL_MS,
        heartbeat_ms: AGENT_HEARTBEAT_MS,
        policy_version: createHash('sha256')
          .update(JSON.stringify([contest.id, contest.active, observe, names, own]))
          .digest('hex')
          .slice(0, 16),
      });
    }
  }
  return configs;
}
