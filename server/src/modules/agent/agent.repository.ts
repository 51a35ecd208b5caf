import { Contest, contestRow } from '../contests/index.js';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import type { AgentEventKind, ContestRow } from '@concurso/shared';
import { AgentEvent } from './agent-event.entity.js';
import { AgentMachine } from './agent-machine.entity.js';
import type { AgentPrincipal } from '../../plugins/access.js';
import { placeholders, type SqlRunner, type SqlStatement } from '../../db/sql.js';
import { Team } from '../teams/index.js';
import { appendRowToChain } from '../chain/index.js';

/*
 * The agent module's reads and writes (docs/design.md section 6): its `attempts` table and the agent's
 * columns of `teams` (`agent_key_hash`, `agent_last_seen`, `agent_online`, `agent_alert`, and
 * `number_attempts` / `version` when attempts are counted), and its agents' log `agent_events`. Every function takes the EntityManager first, so it runs in
 * the caller's transaction. Through the EntityManager, except the measured hot paths below, which are SQL
 * text run on the agents' bare pool: the key lookup, the heartbeat's statements and the
 * attempts group commit's. What changes a team's
 * status, count, presence or `version` is teams/team-row-writer.ts.
 */

// Keys and configuration ----------------------------------------------------------------------------

/**
 * The team whose agent key has SHA-256 `hash`, as the guard's principal; null for no team. One SQL
 * statement, no entity, on the agents' bare pool (`poolSql(app.sql)`): it runs for every agent request
 * the key cache misses (500 agents, a 5 s cache: 100 a second), and a CPU profile showed the
 * entity's hydration there (bench/BENCHMARKS.md).
 */
export async function teamByAgentKeyHash(sql: SqlRunner, hash: string): Promise<AgentPrincipal | null> {
  const [team] = await sql<AgentPrincipal>(
    'select id, levels_id, contests_id from teams where agent_key_hash = ?',
    [hash],
  );
  return team ?? null;
}

/** Stores the SHA-256 of team `teamId`'s new agent key (the previous one stops matching); false for no team. */
export async function setAgentKeyHash(em: EntityManager, teamId: number, hash: string): Promise<boolean> {
  const team = await em.findOne(Team, teamId);
  if (!team) return false;
  team.agentKeyHash = hash;
  await em.flush();
  return true;
}

/** Teams `teamIds`' names, levels and contests, for their agents' policies; missing ids are left out. */
export async function agentTeams(
  em: EntityManager,
  teamIds: readonly number[],
): Promise<Array<{ id: number; name: string; levelsId: number; contest: ContestRow }>> {
  if (teamIds.length === 0) return [];
  const teams = await em.find(Team, { id: { $in: [...teamIds] } }, { populate: ['contest'] });
  return teams.map((team) => ({
    id: team.id,
    name: team.name,
    levelsId: team.level.id,
    contest: contestRow(team.contest),
  }));
}

// Presence ------------------------------------------------------------------------------------------

/**
 * A heartbeat of an agent the boards already show online without an alert: `agent_last_seen` = `at`,
 * one statement without a transaction, changing no row when the agent is offline or alerted (a
 * silent machine of a team whose other machine beats), or in the same millisecond: then the
 * caller runs the locked transition (agent.service.ts). SQL text because it is the hot path of presence:
 * BENCHMARKS.md, "One-statement heartbeats" (500 agents sent 50 transactions/s before); on the bare pool
 * with the machine's update (`recordHeartbeat`).
 */
export function touchOnlineAgentStatement(teamId: number, at: Date): SqlStatement {
  return {
    sql: 'update teams set agent_last_seen = ? where id = ? and agent_online = 1 and agent_alert is null',
    params: [at, teamId],
  };
}

/** What the boards were last told of a team's agent, and where it stands. */
export interface AgentPresence {
  teamId: number;
  contestId: number;
  online: boolean;
  alert: string | null;
  lastSeen: Date | null;
}

const presenceOf = (team: {
  id: number;
  contest: { id: number };
  agentOnline: boolean;
  agentAlert?: string | null;
  agentLastSeen?: Date | null;
}): AgentPresence => ({
  teamId: team.id,
  contestId: team.contest.id,
  online: team.agentOnline,
  alert: team.agentAlert ?? null,
  lastSeen: team.agentLastSeen ?? null,
});

/** Team `teamId`'s agent presence, its row locked until the transaction ends; null for no team. */
export async function lockAgentPresence(em: EntityManager, teamId: number): Promise<AgentPresence | null> {
  const team = await em.findOne(Team, teamId, {
    fields: ['agentOnline', 'agentAlert', 'agentLastSeen', 'contest'],
    lockMode: LockMode.PESSIMISTIC_WRITE,
  });
  return team ? presenceOf(team) : null;
}

/**
 * The teams shown online whose agent was last seen before `before`, their rows locked; rows another
 * process is sweeping are skipped (`skip locked`), so each change is announced once.
 */
export async function lockSilentAgents(em: EntityManager, before: Date): Promise<AgentPresence[]> {
  const teams = await em.find(
    Team,
    { agentOnline: true, agentLastSeen: { $lt: before } },
    {
      fields: ['agentOnline', 'agentAlert', 'agentLastSeen', 'contest'],
      lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE,
    },
  );
  return teams.map(presenceOf);
}

/**
 * The presence of teams `teamIds`, their rows locked in id order; rows another process holds are
 * skipped (`skip locked`: the sweep of several processes announces each change once).
 */
export async function lockAgentTeams(
  em: EntityManager,
  teamIds: readonly number[],
): Promise<AgentPresence[]> {
  if (teamIds.length === 0) return [];
  const teams = await em.find(
    Team,
    { id: { $in: [...teamIds] } },
    {
      fields: ['agentOnline', 'agentAlert', 'agentLastSeen', 'contest'],
      orderBy: { id: 'asc' },
      lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE,
    },
  );
  return teams.map(presenceOf);
}

/**
 * Adds one event to the log of a team's agent or one of its machines, chained to its contest's log
 * (modules/chain/README.md), in the caller's transaction (after the team row's lock, when it takes one).
 */
export async function recordAgentEvent(
  em: EntityManager,
  event: {
    contestId: number;
    teamId: number;
    kind: AgentEventKind;
    at: Date;
    lastSeen: Date | null;
    silenceMs?: number;
    /** The machine it is about (presence per machine); none for a team's agent that names none. */
    hostname?: string | null;
  },
): Promise<void> {
  const row = em.create(AgentEvent, {
    hostname: event.hostname ?? null,
    contest: em.getReference(Contest, event.contestId),
    team: em.getReference(Team, event.teamId),
    kind: event.kind,
    at: event.at,
    lastSeen: event.lastSeen,
    silenceMs: event.silenceMs ?? null,
  });
  await em.flush();
  await appendRowToChain(em, 'agente', row.id);
}

// Attempts group commit -----------------------------------------------------------------------------
//
// SQL text: this is the measured hot path of the product, BENCHMARKS.md "Capacity of the attempts path"
// and "What changed in the server", "Group commit of attempts" (a few round trips per group of requests,
// whatever its size; one multi-row INSERT and one CASE UPDATE). Statements (`SqlStatement`, db/sql.ts)
// that attempt-writer.ts's `writeAttemptGroup` sends in two round trips on its bare mysql2 pool;
// the load tester's mysql2 baseline runs that same function.

/** One attempt to insert (`attempts` row), its team's contest already known. */
export interface NewAttempt {
  teamId: number;
  contestId: number;
  process: string;
  /** The file name a renamed copy ran as, else null. */
  executable: string | null;
  /** What ran the program when a loader or an interpreter did (`python3`), else null or absent. */
  via?: string | null;
  killed: boolean;
  occurredAt: Date;
  eventId: string;
}

/** A locked team's contest, that contest's automatic block threshold (null: none) and whether it is the active one. */
export interface TeamContest {
  contestId: number;
  maxAttempts: number | null;
  active: boolean;
  /** Its `number_attempts`: the attempt rows it has stored (docs/design.md section 3). */
  attempts: number;
}

/**
 * The statement that locks the rows of `teamIds` in id order (so concurrent groups, toggles and
 * heartbeats queue instead of deadlocking) and reads each existing team's contest id, `max_attempts`
 * `active` and its `number_attempts` (`readTeamContests`); deleted teams are missing. The contest is read by a subquery, which `for update` does not lock: groups of one
 * contest's teams must not queue behind each other on the contest's row. That subquery is a plain
 * (consistent) read, so run this under READ COMMITTED (attempt-writer.ts says why).
 */
export function lockTeamContestsStatement(teamIds: readonly number[]): SqlStatement {
  return {
    sql: `select id, contests_id, number_attempts, (select max_attempts from contests where contests.id = teams.contests_id) as max_attempts,
      (select active_key from contests where contests.id = teams.contests_id) as active
      from teams where id in (${placeholders(teamIds.length)}) order by id for update`,
    params: [...teamIds],
  };
}

/** The rows of `lockTeamContestsStatement`, by team id. */
export function readTeamContests(rows: readonly unknown[]): Map<number, TeamContest> {
  return new Map(
    (
      rows as Array<{
        id: number;
        contests_id: number;
        number_attempts: number;
        max_attempts: number | null;
        active: number | null;
      }>
    ).map((row) => [
      row.id,
      {
        contestId: row.contests_id,
        maxAttempts: row.max_attempts === null ? null : Number(row.max_attempts),
        active: Number(row.active) === 1,
        attempts: Number(row.number_attempts),
      },
    ]),
  );
}

/** A (team id, event id) pair as stored. */
export interface StoredAttempt {
  teams_id: number;
  event_id: string;
}

/**
 * The statement of which (team id, event id) `pairs` (not empty) are stored already, as stored (the
 * column compares event ids without case); its rows are `StoredAttempt`s. Lock the teams first: then no
 * other transaction can add one before this commits.
 */
export function storedAttemptsStatement(pairs: ReadonlyArray<readonly [number, string]>): SqlStatement {
  return {
    sql: `select teams_id, event_id from attempts where (teams_id, event_id) in (${pairs.map(() => '(?, ?)').join(', ')})`,
    params: pairs.flat(),
  };
}

/**
 * The one INSERT of `attempts` (not empty) received at `now`. Their teams' counts are added by
 * `addAttemptCountsStatement` (teams/team-row-writer.ts), the one writer of what the boards show of a team.
 */
export function storeAttemptsStatement(attempts: readonly NewAttempt[], now: Date): SqlStatement {
  return {
    sql: `insert into attempts (teams_id, contests_id, process, executable, via, killed, occurred_at, received_at, event_id, created_at, updated_at) values ${attempts.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    params: attempts.flatMap((a) => [
      a.teamId,
      a.contestId,
      a.process,
      a.executable,
      a.via ?? null,
      a.killed ? 1 : 0,
      a.occurredAt,
      now,
      a.eventId,
      now,
      now,
    ]),
  };
}

// Machines (the lab board; presence per machine, docs/design.md section 6a) ------------------
//
// SQL text for what runs with every heartbeat (the measured presence path, BENCHMARKS.md), on the
// agents' bare pool with the presence update (agent.service.ts `recordHeartbeat`): one UPDATE for a
// machine already known and beating. A machine not known yet, or one with an alert of its own, takes
// the locked transition (team row first, then its machines), through the EntityManager.

/** What a heartbeat says of its machine. */
export interface MachineReport {
  hostname: string;
  os: string;
  version: string;
  policyVersion: string;
  /** The network policy version in force (null: not said, an older agent), and why it failed. */
  networkVersion: number | null;
  networkError: string | null;
  /**
   * The allowed host names its network policy left out because they did not resolve, separated by one
   * space (`NETWORK_UNRESOLVED_MAX` names at most, the heartbeat's schema); null when none.
   */
  networkUnresolved: string | null;
  /** How it filters an allowed host name (`NETWORK_FILTERS`: `name`, `address`); null when not said. */
  networkFilter: string | null;
  /** The agent's clock minus the server's (ms), or null when it did not send its clock. */
  clockOffsetMs: number | null;
  /** The request's source address (`request.ip`: the `TRUST_PROXY` rule), at most 45 characters. */
  address: string | null;
}

/** What the machine says of itself, in the columns' order of both statements below. */
function said(report: MachineReport): unknown[] {
  return [
    report.os,
    report.version,
    report.policyVersion,
    report.networkVersion,
    report.networkError,
    report.networkUnresolved,
    report.networkFilter,
    report.clockOffsetMs,
    report.address,
  ];
}

/**
 * A heartbeat of team `teamId`'s agent on a machine already known (`report.hostname`) and without an
 * alert of its own, at `at`: what it says of itself, its address and `last_seen`; its `online_since`
 * restarts when it was not heard for `offlineAfterMs`. Changes no row for a machine not known yet or
 * with an alert (then the locked transition, `recordHeartbeat`).
 */
export function updateMachineStatement(
  teamId: number,
  report: MachineReport,
  at: Date,
  offlineAfterMs: number,
): SqlStatement {
  return {
    sql:
      'update agent_machines set os = ?, version = ?, policy_version = ?, network_version = ?, ' +
      'network_error = ?, network_unresolved = ?, network_filter = ?, clock_offset_ms = ?, address = ?, ' +
      'online_since = if(last_seen < ?, ?, online_since), last_seen = ? ' +
      'where teams_id = ? and hostname = ? and alert is null',
    params: [...said(report), new Date(at.getTime() - offlineAfterMs), at, at, teamId, report.hostname],
  };
}

/** How many machines a team may have (`LAB_MAX_MACHINES_PER_TEAM`, `LAB_MACHINE_LIMITS`). */
export interface MachineCaps {
  /** Machines heard since `liveSince` (within the offline window). */
  maxLive: number;
  liveSince: Date;
  /** Rows in all, silent ones included. */
  maxRows: number;
}

/**
 * Adds machine `report.hostname` of team `teamId`, first heard at `at`, while the team has fewer than
 * `caps.maxLive` machines heard since `caps.liveSince` and fewer than `caps.maxRows` rows (a stolen key
 * inventing host names adds nothing beyond; names it stopped using stop counting after the window, so
 * they cannot keep the real machine out). Run it with the team's row locked; true when added.
 */
export async function addMachine(
  em: EntityManager,
  teamId: number,
  report: MachineReport,
  at: Date,
  caps: MachineCaps,
): Promise<boolean> {
  const result = await em.execute<{ affectedRows: number }>(
    'insert ignore into agent_machines ' +
      '(teams_id, hostname, os, version, policy_version, network_version, network_error, ' +
      'network_unresolved, network_filter, clock_offset_ms, address, online_since, last_seen) ' +
      'select ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? from dual ' +
      'where (select count(*) from agent_machines where teams_id = ? and last_seen >= ?) < ? ' +
      'and (select count(*) from agent_machines where teams_id = ?) < ?',
    [
      teamId,
      report.hostname,
      ...said(report),
      at,
      at,
      teamId,
      caps.liveSince,
      caps.maxLive,
      teamId,
      caps.maxRows,
    ],
    'run',
  );
  return Number(result.affectedRows) > 0;
}

/** A machine's presence, as the locked transitions and the sweep read it. */
export interface MachinePresence {
  id: number;
  teamId: number;
  hostname: string;
  /** Its own alert now (`AgentAlert`), null while it beats. */
  alert: string | null;
  /** The last state given to the log and boards (`sin_senal`, `detenido`, `sin_reanudar`, `en_linea`), null: none. */
  logged: string | null;
  lastSeen: Date;
  changedAt: Date | null;
}

/**
 * The machines of teams `teamIds` (their team rows locked by the caller, so no transition changes them
 * meanwhile), by team then host name.
 */
export async function machinePresences(
  em: EntityManager,
  teamIds: readonly number[],
): Promise<MachinePresence[]> {
  if (teamIds.length === 0) return [];
  const rows = await em.execute<
    Array<{
      id: number;
      teams_id: number;
      hostname: string;
      alert: string | null;
      logged: string | null;
      last_seen: Date;
      changed_at: Date | null;
    }>
  >(
    `select id, teams_id, hostname, alert, logged, last_seen, changed_at from agent_machines
      where teams_id in (${placeholders(teamIds.length)}) order by teams_id, hostname, id`,
    [...teamIds],
  );
  return rows.map((row) => ({
    id: row.id,
    teamId: row.teams_id,
    hostname: row.hostname,
    alert: row.alert,
    logged: row.logged,
    lastSeen: new Date(row.last_seen),
    changedAt: row.changed_at ? new Date(row.changed_at) : null,
  }));
}

/**
 * Writes what a transition changed of machine `id`: its alert and last change, the state given to the
 * log and boards, and with a heartbeat what it said of itself (`report`, heard at `seenAt`; its
 * `online_since` restarts then) or with a stop notice its address.
 */
export async function updateMachinePresence(
  em: EntityManager,
  id: number,
  change: {
    alert?: string | null;
    changedAt?: Date;
    logged?: string | null;
    report?: MachineReport;
    seenAt?: Date;
    address?: string | null;
  },
): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [];
  const set = (column: string, value: unknown) => {
    sets.push(`${column} = ?`);
    params.push(value);
  };
  if (change.alert !== undefined) set('alert', change.alert);
  if (change.changedAt !== undefined) set('changed_at', change.changedAt);
  if (change.logged !== undefined) set('logged', change.logged);
  if (change.report) {
    const r = change.report;
    for (const [column, value] of [
      ['os', r.os],
      ['version', r.version],
      ['policy_version', r.policyVersion],
      ['network_version', r.networkVersion],
      ['network_error', r.networkError],
      ['network_unresolved', r.networkUnresolved],
      ['network_filter', r.networkFilter],
      ['clock_offset_ms', r.clockOffsetMs],
      ['address', r.address],
    ] as const)
      set(column, value);
  }
  if (change.seenAt) {
    set('online_since', change.seenAt);
    set('last_seen', change.seenAt);
  }
  if (change.address !== undefined && !change.report) set('address', change.address);
  if (sets.length === 0) return;
  await em.execute(`update agent_machines set ${sets.join(', ')} where id = ?`, [...params, id], 'run');
}

/**
 * Gives machine `id` the «sin señal» alert at `now` when it still has no alert and was last heard
 * before `silentBefore` (a heartbeat's UPDATE does not take the team's lock: one that came after the
 * sweep read the machine wins). True when it did.
 */
export async function markMachineSilent(
  em: EntityManager,
  id: number,
  silentBefore: Date,
  now: Date,
): Promise<boolean> {
  const result = await em.execute<{ affectedRows: number }>(
    "update agent_machines set alert = 'sin_senal', changed_at = ?, logged = 'sin_senal' " +
      'where id = ? and alert is null and last_seen < ?',
    [now, id, silentBefore],
    'run',
  );
  return Number(result.affectedRows) > 0;
}

/**
 * Escalates machine `id`'s documented stop to «detenido sin reanudar» (`sin_reanudar`, logged so) when
 * it still holds `detenido`, stopped before `stoppedBefore` and unheard since (a heartbeat clears the
 * alert without the team's lock: one that came after the sweep read the machine wins). Its
 * `changed_at` stays the stop's time (how long it has been stopped). True when it did.
 */
export async function markMachineNotResumed(
  em: EntityManager,
  id: number,
  stoppedBefore: Date,
): Promise<boolean> {
  const result = await em.execute<{ affectedRows: number }>(
    "update agent_machines set alert = 'sin_reanudar', logged = 'sin_reanudar' " +
      "where id = ? and alert = 'detenido' and changed_at < ? and last_seen < ?",
    [id, stoppedBefore, stoppedBefore],
    'run',
  );
  return Number(result.affectedRows) > 0;
}

/**
 * The teams of contest `contestId` whose agent names no machine and was stopped the documented way
 * (`detenido` on the boards) with its last heartbeat before `before`, their rows locked; rows another
 * process is sweeping are skipped (`skip locked`). Such an agent's stop is not dated apart from its
 * last heartbeat, at most a heartbeat period before it.
 */
export async function lockStoppedAgents(
  em: EntityManager,
  contestId: number,
  before: Date,
): Promise<AgentPresence[]> {
  const teams = await em.find(
    Team,
    { contest: contestId, agentOnline: false, agentAlert: 'detenido', agentLastSeen: { $lt: before } },
    {
      fields: ['agentOnline', 'agentAlert', 'agentLastSeen', 'contest'],
      lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE,
    },
  );
  return teams.map(presenceOf);
}

/**
 * Team ids with a machine the sweep must look at, at most `limit`: of the active contest
 * (`activeContestId`), silent since before `silentBefore` without an alert yet, or stopped
 * (`detenido`) since before it; or with a coalesced change (its state differs from what was logged)
 * that has held since before `quietBefore`.
 */
export async function teamsWithMachineChanges(
  em: EntityManager,
  activeContestId: number | null,
  silentBefore: Date,
  quietBefore: Date,
  limit = 500,
): Promise<number[]> {
  const rows = await em.execute<Array<{ teams_id: number }>>(
    `select distinct m.teams_id from agent_machines m inner join teams t on t.id = m.teams_id
      where (t.contests_id <=> ? and m.alert is null and m.last_seen < ?)
      or (t.contests_id <=> ? and m.alert = 'detenido' and m.changed_at < ? and m.last_seen < ?)
      or (m.changed_at < ? and not (coalesce(m.logged, 'en_linea') <=> coalesce(m.alert, 'en_linea')))
      limit ?`,
    [activeContestId, silentBefore, activeContestId, silentBefore, silentBefore, quietBefore, limit],
  );
  return rows.map((row) => row.teams_id);
}

/**
 * Deletes machine rows silent since before `before` (at most `limit` per call), except those that hold
 * an alarm of the active contest (`activeContestId`; «sin señal», «detenido sin reanudar»): that one
 * waits for its machine or an admin (`LAB_MACHINE_LIMITS`). One statement outside any transaction.
 * Answers how many went.
 */
export async function deleteExpiredMachines(
  em: EntityManager,
  activeContestId: number | null,
  before: Date,
  limit = 1_000,
): Promise<number> {
  const result = await em.execute<{ affectedRows: number }>(
    `delete from agent_machines where last_seen < ? and id in (select id from (
      select m.id from agent_machines m inner join teams t on t.id = m.teams_id
      where m.last_seen < ? and not (t.contests_id <=> ? and coalesce(m.logged, '') in ('sin_senal', 'sin_reanudar'))
      limit ?) as expired)`,
    [before, before, activeContestId, limit],
    'run',
  );
  return Number(result.affectedRows);
}

/** Machine `id`'s team, or null when there is no such machine. */
export async function machineTeam(em: EntityManager, id: number): Promise<number | null> {
  const [row] = await em.execute<Array<{ teams_id: number }>>(
    'select teams_id from agent_machines where id = ?',
    [id],
  );
  return row ? row.teams_id : null;
}

/** Deletes machine `id` (its team's row locked by the caller); false when there was none. */
export async function deleteMachine(em: EntityManager, id: number): Promise<boolean> {
  const result = await em.execute<{ affectedRows: number }>(
    'delete from agent_machines where id = ?',
    [id],
    'run',
  );
  return Number(result.affectedRows) > 0;
}

/** A team of a contest as the lab board lists it. */
export interface LabTeam {
  id: number;
  name: string;
  levelsId: number;
  level: string;
}

/** The teams of contest `contestId`, by name, for the lab board. */
export async function labTeams(em: EntityManager, contestId: number): Promise<LabTeam[]> {
  const teams = await em.find(
    Team,
    { contest: contestId },
    {
      populate: ['level'],
      fields: ['name', 'level.level'],
      orderBy: { name: 'asc', id: 'asc' },
    },
  );
  return teams.map((team) => ({
    id: team.id,
    name: team.name,
    levelsId: team.level.id,
    level: team.level.level,
  }));
}

/** The machines of teams `teamIds`, by host name. */
export async function teamMachines(em: EntityManager, teamIds: readonly number[]) {
  if (teamIds.length === 0) return [];
  return em.find(AgentMachine, { team: { $in: [...teamIds] } }, { orderBy: { hostname: 'asc', id: 'asc' } });
}
