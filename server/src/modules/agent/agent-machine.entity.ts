import { defineEntity, p } from '@mikro-orm/core';
import { Team } from '../teams/index.js';

/**
 * `agent_machines` (the lab board): one machine a team's agent runs on, by host name, as its
 * heartbeats describe it: system, agent version, the policy version it applied, its clock's offset
 * from the server's, since when it has been heard without a gap longer than the offline window, and
 * when last; its own presence (alert, last change, what was logged: docs/design.md section 6a, presence per
 * machine) and the source address of its last request. At most `LAB_MAX_MACHINES_PER_TEAM` heard within
 * the offline window per team (`LAB_MACHINE_LIMITS` for the rest). Deleted with the team.
 */
export const AgentMachine = defineEntity({
  name: 'AgentMachine',
  tableName: 'agent_machines',
  properties: {
    id: p.integer().primary().autoincrement(),
    team: () => p.manyToOne(Team).fieldName('teams_id').deleteRule('cascade'),
    hostname: p.string().length(255),
    os: p.string().length(100),
    version: p.string().length(50),
    policyVersion: p.string().length(64).default('').fieldName('policy_version'),
    clockOffsetMs: p.integer().nullable().fieldName('clock_offset_ms'),
    /** The network policy version it said is in force (0: none), and why it failed. */
    networkVersion: p.integer().unsigned().nullable().fieldName('network_version'),
    networkError: p.string().length(300).nullable().fieldName('network_error'),
    /**
     * The allowed host names its policy in force left out because they did not resolve, separated by
     * one space (at most `NETWORK_UNRESOLVED_MAX`, as the heartbeat's schema bounds them); null: none.
     */
    networkUnresolved: p.string().length(2560).nullable().fieldName('network_unresolved'),
    /** How it said its policy filters an allowed host name (`NETWORK_FILTERS`); null: it never said. */
    networkFilter: p.string().length(8).nullable().fieldName('network_filter'),
    onlineSince: p.datetime(3).fieldName('online_since'),
    lastSeen: p.datetime(3).fieldName('last_seen'),
    /** The source address of its last heartbeat or stop notice (`request.ip`, `TRUST_PROXY`). */
    address: p.string().length(45).nullable(),
    /** Its own alert (`sin_senal`, `detenido`, `sin_reanudar`), null while it beats (presence per machine). */
    alert: p.string().length(16).nullable(),
    /** Its last presence change, and the last state given to the log and boards (coalescing). */
    changedAt: p.datetime(3).nullable().fieldName('changed_at'),
    logged: p.string().length(16).nullable(),
  },
  uniques: [{ name: 'agent_machines_team_host_unique', properties: ['team', 'hostname'] }],
  indexes: [{ name: 'agent_machines_last_seen_index', properties: ['lastSeen'] }],
});
