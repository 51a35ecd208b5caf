import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import { placeholders, type SqlStatement } from '../../db/sql.js';
import { AgentMachine } from './agent-machine.entity.js';

/*
 * The machines of the teams' agents, `agent_machines` (presence per machine and the lab board,
 * docs/design.md section 6a). SQL text for what runs with every heartbeat (the measured presence path,
 * BENCHMARKS.md), on the agents' bare pool with the presence update (agent.service.ts
 * `recordHeartbeat`): one UPDATE for a machine already known and beating. A machine not known yet, or
 * one with an alert of its own, takes the locked transition (team row first, then its machines), in an
 * ORM transaction: SQL text through the EntityManager (`em.execute`), for the conditional inserts and
 * updates the entity API cannot say in one statement.
 */

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
  // The team's contest through the ORM's relation (the teams module's table): no SQL text on `teams`.
  const ofActive =
    activeContestId === null
      ? []
      : [
          { team: { contest: activeContestId }, alert: null, lastSeen: { $lt: silentBefore } },
          {
            team: { contest: activeContestId },
            alert: 'detenido',
            changedAt: { $lt: silentBefore },
            lastSeen: { $lt: silentBefore },
          },
        ];
  const rows = await em
    .createQueryBuilder(AgentMachine, 'm')
    .select(raw('distinct m.teams_id as teams_id'))
    .where({
      $or: [...ofActive, { changedAt: { $lt: quietBefore }, [raw(COALESCED_CHANGE)]: 0 }],
    })
    .limit(limit)
    .execute<Array<{ teams_id: number }>>('all', false);
  return rows.map((row) => row.teams_id);
}

/** 1 when a machine's state is what was logged (`null` both ways meaning «en línea»), else 0. */
const COALESCED_CHANGE = "(coalesce(m.logged, 'en_linea') <=> coalesce(m.alert, 'en_linea'))";

/**
 * Deletes machine rows silent since before `before` (at most `limit` per call), except those that hold
 * an alarm of the active contest (`activeContestId`; «sin señal», «detenido sin reanudar»): that one
 * waits for its machine or an admin (`LAB_MACHINE_LIMITS`). Outside any transaction: the ids through the ORM (the team's contest by its relation), then one
 * DELETE that keeps the age condition (a machine heard meanwhile stays).
 * Answers how many went.
 */
export async function deleteExpiredMachines(
  em: EntityManager,
  activeContestId: number | null,
  before: Date,
  limit = 1_000,
): Promise<number> {
  const keep = ['sin_senal', 'sin_reanudar'];
  const expired = await em.find(
    AgentMachine,
    activeContestId === null
      ? { lastSeen: { $lt: before } }
      : {
          lastSeen: { $lt: before },
          $or: [
            { team: { contest: { $ne: activeContestId } } },
            { logged: null },
            { logged: { $nin: keep } },
          ],
        },
    { fields: ['id'], limit, disableIdentityMap: true },
  );
  if (expired.length === 0) return 0;
  return em.nativeDelete(AgentMachine, { id: { $in: expired.map((m) => m.id) }, lastSeen: { $lt: before } });
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

/** The machines of teams `teamIds`, by host name. */
export async function teamMachines(em: EntityManager, teamIds: readonly number[]) {
  if (teamIds.length === 0) return [];
  return em.find(AgentMachine, { team: { $in: [...teamIds] } }, { orderBy: { hostname: 'asc', id: 'asc' } });
}
