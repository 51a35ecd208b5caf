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
import { agentFingerprintsByTeam } from '../fingerprints/index.js';
import { agentTeams } from '../teams/index.js';

/** How the policies are built: the fingerprints' quorum and the agents' heartbeat period. */
export interface PolicyOptions {
  /** Teams whose claims make a fingerprint apply to every machine (`FINGERPRINT_QUORUM`). */
  quorum: number;
  /** The agents' heartbeat period (ms), `heartbeatMsFor` of the offline window. */
  heartbeatMs: number;
}

/**
 * The agents' heartbeat period for an offline window of `offlineAfterMs` (ms, `AGENT_OFFLINE_AFTER_MS`):
 * `AGENT_HEARTBEAT_MS`, or a third of the window when that is shorter, so a running agent beats at
 * least three times within it and is never taken for a silent one («sin señal»), at least 200 ms.
 */
export function heartbeatMsFor(offlineAfterMs: number): number {
  return Math.max(200, Math.min(AGENT_HEARTBEAT_MS, Math.floor(offlineAfterMs / 3)));
}

/**
 * The policy team `teamId`'s agents enforce, as `GET /api/agent/config` answers it and the push
 * channel sends it; see `agentConfigs`.
 * @throws NotFoundError when the team no longer exists.
 */
export async function agentConfig(
  em: EntityManager,
  teamId: number,
  options: PolicyOptions,
): Promise<AgentConfig> {
  const config = (await agentConfigs(em, [teamId], options)).get(teamId);
  if (!config) throw new NotFoundError(`Team ${teamId} not found`);
  return config;
}

/**
 * The policies of teams `teamIds` (those that still exist), in a few queries whatever their number: the
 * teams, then per contest its blocked set and its fingerprints (every connected agent gets
 * its own after a change). Only the active contest's agents block anything (docs/design.md section 3): a
 * team of another contest gets an empty set. With the set go the fingerprints of its processes
 * (renamed programs): those that apply to every machine (confirmed or at `quorum`) and the team's own claims, within
 * `AGENT_CONFIG_FINGERPRINT_BYTES` (docs/design.md section 6a), never a hash denied in the contest
 * nor one matching a permitted program's known file (`agentFingerprintsByTeam`). `observe` only while the contest
 * is active and observes, `capture_screens` only while it is active and captures its screens;
 * `heartbeat_ms` is `options.heartbeatMs`; `network` the contest's allowed sites while it is active. `policy_version` is a digest of all that, so two equal policies have one
 * version whoever computed them.
 */
export async function agentConfigs(
  em: EntityManager,
  teamIds: readonly number[],
  { quorum, heartbeatMs }: PolicyOptions,
): Promise<Map<number, AgentConfig>> {
  const teams = await agentTeams(em, teamIds);
  const configs = new Map<number, AgentConfig>();
  for (const contestId of new Set(teams.map((team) => team.contest.id))) {
    const mine = teams.filter((team) => team.contest.id === contestId);
    // The allowed sites travel once, in `network` (the config stays under 64 KB).
    const { allowed_sites: allowedSites, ...contest } = mine[0]!.contest;
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
    const captureScreens = contest.active && contest.capture_screens !== false;
    // The network policy is in force only while the contest is the active one.
    const network = {
      version: contest.network_version,
      allowed: contest.active ? allowedSites : [],
    };
    for (const team of mine) {
      const own = fingerprints.get(team.id) ?? [];
      configs.set(team.id, {
        team: { id: team.id, name: team.name, levels_id: team.levelsId },
        contest,
        blocked: names,
        fingerprints: own,
        observe,
        capture_screens: captureScreens,
        poll_ms: AGENT_POLL_MS,
        heartbeat_ms: heartbeatMs,
        network,
        policy_version: createHash('sha256')
          .update(JSON.stringify([contest.id, contest.active, observe, captureScreens, names, own, network]))
          .digest('hex')
          .slice(0, 16),
      });
    }
  }
  return configs;
}
