import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import type { AgentObservedProcess, ObservedProcessRow } from '@concurso/shared';
import { contestProcesses } from '../contests/contests.repository.js';
import { contestFingerprints } from '../processes/process-fingerprints.repository.js';
import { ObservedProcess } from './observed-process.entity.js';
import { blockedAs } from './observed-matching.js';

/*
 * The only reads and writes of `observed_processes` (issue 14, "What ran in the lab"), through the
 * QueryBuilder: every function takes the EntityManager first. The inventory is aggregated in the
 * database (`group by` name and fingerprint), never loaded row by row: a lab of 100 machines reports
 * hundreds of executables each.
 */

/**
 * Adds an agent's report to the inventory of contest `contestId` for team `teamId`, one statement:
 * one row per (contest, team, name, fingerprint; a null fingerprint stored as `''`), merged with a
 * row already there: `first_seen` the earliest, `last_seen` the latest, `count` plus the report's
 * `starts`. Names compare without case (the unique index's collation). Dates are the agent's clock,
 * stored in UTC like `attempts.occurred_at`. Answers how many rows the report carried.
 */
export async function recordObserved(
  em: EntityManager,
  contestId: number,
  teamId: number,
  observed: readonly AgentObservedProcess[],
): Promise<number> {
  if (observed.length === 0) return 0;
  await em
    .createQueryBuilder(ObservedProcess)
    .insert(
      observed.map((row) => ({
        contest: contestId,
        team: teamId,
        name: row.name,
        sha256: row.sha256 ?? '',
        firstSeen: new Date(row.first_seen),
        lastSeen: new Date(row.last_seen),
        count: row.starts,
      })),
    )
    .onConflict()
    .merge({
      firstSeen: raw('least(first_seen, values(first_seen))'),
      lastSeen: raw('greatest(last_seen, values(last_seen))'),
      count: raw('count + values(count)'),
    })
    .execute('run');
  return observed.length;
}

/**
 * The inventory of contest `contestId` (`GET /api/observedProcesses`): one row per file name and
 * fingerprint across the contest's machines, with the machines (distinct teams) and the teams' names
 * (sorted), the earliest first and latest last start (ISO 8601), the starts summed, and `blocked_as`:
 * the contest's blocked process it already is (by name as the agent matches it, or by a fingerprint
 * of that process that applies to every machine: confirmed, or claimed by `quorum` teams; issue 21),
 * else null. Most machines first, then by name.
 */
export async function observedRows(
  em: EntityManager,
  contestId: number,
  quorum: number,
): Promise<ObservedProcessRow[]> {
  const rows = await em
    .createQueryBuilder(ObservedProcess, 'o')
    .select([
      'o.name',
      'o.sha256',
      raw('count(distinct o.teams_id) as machines'),
      raw('min(o.first_seen) as first_seen'),
      raw('max(o.last_seen) as last_seen'),
      raw('sum(o.count) as starts'),
    ])
    .join('o.team', 't')
    .where({ contest: contestId })
    .groupBy(['o.name', 'o.sha256'])
    .orderBy({ [raw('machines')]: 'desc', name: 'asc', sha256: 'asc' })
    .execute<
      Array<{
        name: string;
        sha256: string;
        machines: number | string;
        first_seen: Date | string;
        last_seen: Date | string;
        starts: number | string;
      }>
    >('all', false);
  if (rows.length === 0) return [];
  const teamsOf = await teamNames(em, contestId);

  const blocked = await contestProcesses(em, contestId);
  const fingerprints = await contestFingerprints(
    em,
    contestId,
    blocked.map((row) => row.processes_id),
    quorum,
  );
  const matchBlocked = blockedAs(
    blocked.map((row) => row.processes.name),
    fingerprints,
  );
  return rows.map((row) => {
    const sha256 = row.sha256 === '' ? null : row.sha256;
    return {
      name: row.name,
      sha256,
      machines: Number(row.machines),
      teams: teamsOf.get(inventoryKey(row.name, row.sha256)) ?? [],
      first_seen: new Date(row.first_seen).toISOString(),
      last_seen: new Date(row.last_seen).toISOString(),
      count: Number(row.starts),
      blocked_as: matchBlocked(row.name, sha256),
    };
  });
}

/** A row's key as the grouping compares it (the column's collation ignores case). */
const inventoryKey = (name: string, sha256: string) => `${name.toLowerCase()}\u0000${sha256}`;

/**
 * The teams that ran each executable of contest `contestId`, by `inventoryKey`, names sorted. A query
 * of its own rather than `json_arrayagg`/`group_concat` in the inventory's: MariaDB cuts those at
 * `group_concat_max_len` (1,024 bytes: a few dozen teams) and hands JSON back in another character
 * set ('M?quina' for 'Máquina').
 */
async function teamNames(em: EntityManager, contestId: number): Promise<Map<string, string[]>> {
  const pairs = await em
    .createQueryBuilder(ObservedProcess, 'o')
    .select(['o.name', 'o.sha256', raw('t.name as team')])
    .join('o.team', 't')
    .where({ contest: contestId })
    .orderBy({ [raw('t.name')]: 'asc', [raw('t.id')]: 'asc' })
    .execute<Array<{ name: string; sha256: string; team: string }>>('all', false);
  const teams = new Map<string, string[]>();
  for (const pair of pairs) {
    const key = inventoryKey(pair.name, pair.sha256);
    const names = teams.get(key) ?? [];
    // One team per row of the table, but two teams may share a name.
    names.push(pair.team);
    teams.set(key, names);
  }
  return teams;
}

/**
 * The teams of contest `contestId` whose agents saw an executable with fingerprint `sha256` start
 * (issue 21): the claimants an admin's "Bloquear" records for that fingerprint, by team id.
 */
export async function observedTeamIds(
  em: EntityManager,
  contestId: number,
  sha256: string,
): Promise<number[]> {
  const rows = await em
    .createQueryBuilder(ObservedProcess, 'o')
    .select('o.teams_id')
    .distinct()
    .where({ contest: contestId, sha256 })
    .execute<Array<{ teams_id: number }>>('all', false);
  return rows.map((row) => row.teams_id);
}
