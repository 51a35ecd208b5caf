import type { EntityManager } from '@mikro-orm/mysql';
import {
  NETWORK_FILTERS,
  agentAlertOf,
  parseDestination,
  type LabMachine,
  type LabMachines,
  type NetworkFilter,
} from '@concurso/shared';
import { activeContest } from '../contests/index.js';
import { agentConfigs, type PolicyOptions } from './agent-config.js';
import { labTeams } from '../teams/index.js';
import { teamMachines } from './agent-machines.repository.js';
import type { LabPolicyGrace } from './lab-policy-grace.js';

/**
 * The lab board (docs/design.md section 6a): the active contest's machines, each with its
 * policy state against its team's current policy (`agentConfigs`), online when heard within
 * `offlineAfterMs` without an alert of its own (presence per machine: a documented stop is at once),
 * its own alert and the source address of its last request; a team is ready when one of its machines
 * is online with the current policy (or, with `grace`, with the one current just before a change
 * younger than `LAB_POLICY_GRACE_MS`); the teams with no machine online are `missing`. Each alert
 * carries since when (`alert_since`: the last heartbeat of a silent machine, the stop of a stopped
 * one). Nothing when no contest is active.
 */
export async function labBoard(
  em: EntityManager,
  policy: PolicyOptions,
  offlineAfterMs: number,
  now = new Date(),
  grace?: LabPolicyGrace,
): Promise<LabMachines> {
  const contest = await activeContest(em);
  if (!contest) return { contest: null, ready: 0, teams: 0, missing: [], machines: [] };
  const teams = await labTeams(em, contest.id);
  const byId = new Map(teams.map((team) => [team.id, team]));
  const current = await agentConfigs(
    em,
    teams.map((team) => team.id),
    policy,
  );
  // Every team's policy is noted at each read, so a change is dated by the first read that sees it.
  const inGrace = new Map<number, string | null>(
    teams.map((team) => [
      team.id,
      grace?.previousInGrace(team.id, current.get(team.id)?.policy_version ?? '', now.getTime()) ?? null,
    ]),
  );
  // Whether each team's policy lists a host name (what a machine's `network_filter` is about).
  const hostsOf = new Map(
    [...current].map(([teamId, config]) => [
      teamId,
      config.network.allowed.some((site) => {
        const parsed = parseDestination(site);
        return typeof parsed !== 'string' && parsed.kind === 'host';
      }),
    ]),
  );
  const machines: LabMachine[] = [];
  const ready = new Set<number>();
  const heard = new Set<number>();
  for (const machine of await teamMachines(
    em,
    teams.map((team) => team.id),
  )) {
    const team = byId.get(machine.team.id)!;
    // Presence per machine (docs/design.md section 6a): heard within the window, and not stopped or alerted
    // since (the machine's own alert, whatever its team's other machines do).
    const alert = agentAlertOf(machine.alert);
    const online = alert === null && now.getTime() - machine.lastSeen.getTime() <= offlineAfterMs;
    const config = current.get(team.id);
    const policyCurrent = config?.policy_version ?? '';
    const upToDate =
      machine.policyVersion === policyCurrent || machine.policyVersion === inGrace.get(team.id);
    if (online) heard.add(team.id);
    if (online && upToDate) ready.add(team.id);
    machines.push({
      id: machine.id,
      team: { id: team.id, name: team.name },
      level: { id: team.levelsId, level: team.level },
      hostname: machine.hostname,
      os: machine.os,
      version: machine.version,
      online,
      address: machine.address ?? null,
      online_since: machine.onlineSince.toISOString(),
      last_seen: machine.lastSeen.toISOString(),
      policy_version: machine.policyVersion,
      policy_current: policyCurrent,
      policy_state: !online ? 'sin_senal' : upToDate ? 'al_dia' : 'atrasada',
      clock_offset_ms: machine.clockOffsetMs ?? null,
      alert,
      alert_since:
        alert === null
          ? null
          : (alert === 'sin_senal' || !machine.changedAt
              ? machine.lastSeen
              : machine.changedAt
            ).toISOString(),
      // What the machine said of the network policy against the contest's.
      network_version: machine.networkVersion ?? null,
      network_current: config?.network.version ?? 0,
      network_restricted: (config?.network.allowed.length ?? 0) > 0,
      network_error: machine.networkError ?? null,
      network_unresolved: machine.networkUnresolved ? machine.networkUnresolved.split(' ') : [],
      network_filter: networkFilterOf(machine.networkFilter),
      network_hosts: hostsOf.get(team.id) ?? false,
    });
  }
  const order = new Map(teams.map((team, index) => [team.id, index]));
  machines.sort(
    (a, b) => order.get(a.team.id)! - order.get(b.team.id)! || a.hostname.localeCompare(b.hostname),
  );
  return {
    contest,
    ready: ready.size,
    teams: teams.length,
    missing: teams
      .filter((team) => !heard.has(team.id))
      .map((team) => ({ id: team.id, name: team.name, level: team.level })),
    machines,
  };
}

/** A stored `network_filter` as the board says it: one of `NETWORK_FILTERS`, null for anything else. */
function networkFilterOf(stored: string | null | undefined): NetworkFilter | null {
  return NETWORK_FILTERS.find((filter) => filter === stored) ?? null;
}
