import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import {
  OBSERVED_LIMITS,
  type AgentObservedProcess,
  type ObservedProcessRow,
  type ObservedSort,
} from '@concurso/shared';
import { contestProcesses } from '../contests/index.js';
import { inventoryFingerprints } from '../fingerprints/index.js';
import { ObservedProcess } from './observed-process.entity.js';
import { blockedAs, copyOf, foldName } from './observed-matching.js';
import { oneTeamPrograms } from './observed-new-programs.js';

/*
 * The only reads and writes of `observed_processes` (what ran in the lab), through the
 * QueryBuilder: every function takes the EntityManager first. The inventory is aggregated in the
 * database (`group by` name and fingerprint), never loaded row by row: a lab of 100 machines reports
 * hundreds of executables each.
 */

/** What {@link recordObserved} did with a report: rows stored, and new programs left out by the cap. */
export interface ObservedRecorded {
  /** Rows of the report stored (merged into a program already there, or new within the cap). */
  stored: number;
  /** New programs left out because the team reached `OBSERVED_LIMITS.maxPerTeam`. */
  refused: number;
}

/**
 * Adds an agent's report to the inventory of contest `contestId` for team `teamId`, in one
 * transaction: one row per (contest, team, name, fingerprint; a null fingerprint stored as `''`),
 * merged with a row already there: `first_seen` the earliest, `last_seen` the latest, `count` plus the
 * report's `starts`, saturating at `OBSERVED_LIMITS.maxCount` (the INT UNSIGNED column: it once
 * overflowed into a 500 and the name was refused from then on). Names compare without accents or
 * case (the unique index's collation). Dates are the agent's clock, stored in UTC like
 * `attempts.occurred_at`.
 *
 * Bounds (docs/design.md section 6a): a team keeps at most `maxPerTeam` distinct programs per contest.
 * The report is inserted whole, then the rows it created beyond the cap (the newest ids of the team's
 * rows, as the database compared them) are taken out again, so the cap follows the same collation as
 * the merge; the team's row is locked meanwhile, so two reports of one team do not both pass the cap.
 * Programs already stored keep merging their starts.
 */
export async function recordObserved(
  em: EntityManager,
  contestId: number,
  teamId: number,
  observed: readonly AgentObservedProcess[],
  maxPerTeam: number = OBSERVED_LIMITS.maxPerTeam,
  hostname = '',
): Promise<ObservedRecorded> {
  if (observed.length === 0) return { stored: 0, refused: 0 };
  return em.transactional(async (tx) => {
    const connection = tx.getConnection();
    const ctx = tx.getTransactionContext();
    await connection.execute('select id from teams where id = ? for update', [teamId], 'all', ctx);
    const team = { contests_id: contestId, teams_id: teamId };
    const [before] = await connection.execute<Array<{ rows: number | string; last: number | null }>>(
      'select count(*) as `rows`, max(id) as `last` from observed_processes where contests_id = ? and teams_id = ?',
      [team.contests_id, team.teams_id],
      'all',
      ctx,
    );
    await tx
      .createQueryBuilder(ObservedProcess)
      .insert(
        observed.map((row) => ({
          contest: contestId,
          team: teamId,
          name: row.name,
          nameKey: foldName(row.name),
          sha256: row.sha256 ?? '',
          tlsh: row.tlsh ?? null,
          buildId: row.build_id ?? null,
          via: row.via ?? null,
          firstSeen: new Date(row.first_seen),
          lastSeen: new Date(row.last_seen),
          count: Math.min(row.starts, OBSERVED_LIMITS.maxCount),
          // Where it ran («programa nuevo» names them): the latest start's machine and path.
          hostname,
          path: row.path ?? '',
        })),
      )
      .onConflict()
      .merge({
        firstSeen: raw('least(first_seen, values(first_seen))'),
        lastSeen: raw('greatest(last_seen, values(last_seen))'),
        count: raw(`least(count + values(count), ${OBSERVED_LIMITS.maxCount})`),
        hostname: raw(LATEST_WHERE('hostname')),
        path: raw(LATEST_WHERE('path')),
        // A file's digest and build-id: the first reported stays (an older agent's report fills none).
        tlsh: raw('coalesce(tlsh, values(tlsh))'),
        buildId: raw('coalesce(build_id, values(build_id))'),
        // What ran it: the latest report that says (a script is run by one interpreter).
        via: raw('coalesce(values(via), via)'),
      })
      .execute('run');
    const [after] = await connection.execute<Array<{ rows: number | string }>>(
      'select count(*) as `rows` from observed_processes where contests_id = ? and teams_id = ?',
      [team.contests_id, team.teams_id],
      'all',
      ctx,
    );
    const created = Number(after!.rows) - Number(before!.rows);
    const room = Math.max(0, maxPerTeam - Number(before!.rows));
    const refused = Math.max(0, created - room);
    if (refused > 0) {
      await connection.execute(
        'delete from observed_processes where contests_id = ? and teams_id = ? and id > ? order by id desc limit ?',
        [team.contests_id, team.teams_id, before!.last ?? 0, refused],
        'run',
        ctx,
      );
    }
    return { stored: observed.length - refused, refused };
  });
}

/**
 * The merge of `column` (`hostname`, `path`): the report's value when it says one and its latest start
 * is the row's latest (`last_seen`, already merged to the greatest), else the stored one.
 */
const LATEST_WHERE = (column: 'hostname' | 'path') =>
  `if(values(${column}) <> '' and values(last_seen) >= last_seen, values(${column}), ${column})`;

/** One page of the inventory, as `GET /api/observedProcesses` asks it. */
export interface ObservedPageQuery {
  /** Page from 0. */
  page: number;
  /** Rows per page. */
  pageSize: number;
  sort: ObservedSort;
  dir: 'asc' | 'desc';
  /** Searched in names, fingerprints and team names, ignoring accents and case; '' for all. */
  q: string;
}

/** What each `sort` orders by (a fixed list: the query string never names a column itself). */
const SORT_COLUMNS: Record<ObservedSort, string> = {
  machines: 'machines',
  name: 'o.name_key',
  first_seen: 'first_seen',
  last_seen: 'last_seen',
  count: 'starts',
};

/** `%text%` for LIKE, with its own wildcards taken literally. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * One page of the inventory of contest `contestId` (`GET /api/observedProcesses`: paged,
 * sorted and searched in the database): one row per program, its folded name and fingerprint
 * (`foldName`: 'Café.exe' and 'cafe.exe' are one program), with the machines (distinct teams) and
 * those teams' names (sorted; the same key, so `teams.length` is `machines`), the name as an agent
 * first reported it, the earliest first and latest last start (ISO 8601), the starts summed, and
 * `blocked_as`: the contest's blocked process it already is (by name as the agent matches it, or by a
 * fingerprint of that process that applies to every machine: confirmed, or claimed by `quorum` teams),
 * else null, and then `copy_of`: the blocked process whose fingerprint, only claimed so far (its
 * claimants' machines end it, the others not), the row carries, else null. `total` counts the programs the search matches (name or team name, ignoring accents and
 * case; fingerprint from its start). Ties sort by name, then fingerprint. The grouping reads only the
 * covering index `observed_processes_program`; names and teams are read for the page's rows alone.
 * A program one team ran also gets `is_new` («programa nuevo», observed-new-programs.ts) and the
 * `hostname` and `path` of its latest start; the others get false and nulls.
 */
export async function observedPage(
  em: EntityManager,
  contestId: number,
  quorum: number,
  query: ObservedPageQuery,
): Promise<{ rows: ObservedProcessRow[]; total: number }> {
  const connection = em.getConnection();
  // A program matches when one of its rows' names, its fingerprint or one of its teams' names does.
  const matching =
    query.q === ''
      ? { sql: '', params: [] as unknown[] }
      : {
          sql:
            ' and (o.name_key, o.sha256) in (select m.name_key, m.sha256 from observed_processes m ' +
            'join teams mt on mt.id = m.teams_id where m.contests_id = ? ' +
            'and (m.name like ? or m.sha256 like ? or mt.name like ?))',
          params: [
            contestId,
            likePattern(query.q),
            `${query.q.toLowerCase().replace(/[^0-9a-f]/g, '') || '-'}%`,
            likePattern(query.q),
          ],
        };
  const grouped = `from observed_processes o where o.contests_id = ?${matching.sql} group by o.name_key, o.sha256`;
  const params = [contestId, ...matching.params];
  const [counted] = await connection.execute<Array<{ total: number | string }>>(
    `select count(*) as total from (select 1 ${grouped}) g`,
    params,
  );
  const total = Number(counted?.total ?? 0);
  if (total === 0) return { rows: [], total };
  const dir = query.dir === 'asc' ? 'asc' : 'desc';
  const rows = await connection.execute<
    Array<{
      name_key: string;
      sha256: string;
      machines: number | string;
      first_seen: Date | string;
      last_seen: Date | string;
      starts: number | string;
      via: string | null;
    }>
  >(
    'select o.name_key as name_key, o.sha256 as sha256, count(distinct o.teams_id) as machines, ' +
      'min(o.first_seen) as first_seen, max(o.last_seen) as last_seen, sum(o.count) as starts, ' +
      'max(o.via) as via ' +
      `${grouped} order by ${SORT_COLUMNS[query.sort]} ${dir}, o.name_key asc, o.sha256 asc limit ? offset ?`,
    [...params, query.pageSize, query.page * query.pageSize],
  );
  const details = await pageDetails(em, contestId, rows);
  const oneTeam = await oneTeamPrograms(em, contestId, rows, programKey);

  const blocked = await contestProcesses(em, contestId);
  const fingerprints = await inventoryFingerprints(
    em,
    contestId,
    blocked.map((row) => row.processes_id),
    quorum,
  );
  const matchBlocked = blockedAs(
    blocked.map((row) => row.processes.name),
    fingerprints.forAll,
  );
  const matchCopy = copyOf(fingerprints.claimed);
  return {
    total,
    rows: rows.map((row) => {
      const sha256 = row.sha256 === '' ? null : row.sha256;
      const detail = details.get(programKey(row.name_key, row.sha256));
      const single = oneTeam.get(programKey(row.name_key, row.sha256));
      const name = detail?.name ?? row.name_key;
      const blockedAsName = matchBlocked(name, sha256);
      return {
        name,
        sha256,
        machines: Number(row.machines),
        teams: detail?.teams ?? [],
        first_seen: new Date(row.first_seen).toISOString(),
        last_seen: new Date(row.last_seen).toISOString(),
        count: Number(row.starts),
        blocked_as: blockedAsName,
        copy_of: blockedAsName === null ? matchCopy(sha256) : null,
        is_new: single?.isNew ?? false,
        hostname: single?.hostname ?? null,
        path: single?.path ?? null,
        via: row.via ?? null,
      };
    }),
  };
}

/** A program's key: its folded name and fingerprint, both compared byte for byte. */
const programKey = (nameKey: string, sha256: string) => `${nameKey}\u0000${sha256}`;

/**
 * The shown name (the earliest row's: the first agent to report it) and the teams (names sorted) of
 * each program of one inventory page, by `programKey`. A query of its own rather than
 * `json_arrayagg`/`group_concat` in the page's: MariaDB cuts those at `group_concat_max_len` and hands
 * JSON back in another character set.
 */
async function pageDetails(
  em: EntityManager,
  contestId: number,
  page: ReadonlyArray<{ name_key: string; sha256: string }>,
): Promise<Map<string, { name: string; teams: string[] }>> {
  const details = new Map<string, { name: string; teams: string[] }>();
  if (page.length === 0) return details;
  const pairs = await em
    .getConnection()
    .execute<
      Array<{ id: number; name_key: string; sha256: string; name: string; team_id: number; team: string }>
    >(
      'select o.id as id, o.name_key as name_key, o.sha256 as sha256, o.name as name, ' +
        't.id as team_id, t.name as team from observed_processes o join teams t on t.id = o.teams_id ' +
        `where o.contests_id = ? and (o.name_key, o.sha256) in (${page.map(() => '(?, ?)').join(', ')}) ` +
        'order by t.name, t.id',
      [contestId, ...page.flatMap((row) => [row.name_key, row.sha256])],
    );
  const seen = new Map<string, { firstId: number; teamIds: Set<number> }>();
  for (const pair of pairs) {
    const key = programKey(pair.name_key, pair.sha256);
    const detail = details.get(key) ?? { name: pair.name, teams: [] };
    const ids = seen.get(key) ?? { firstId: pair.id, teamIds: new Set<number>() };
    if (pair.id < ids.firstId) {
      ids.firstId = pair.id;
      detail.name = pair.name;
    }
    // One team once (two of its names may fold alike), though two teams may share a name.
    if (!ids.teamIds.has(pair.team_id)) {
      ids.teamIds.add(pair.team_id);
      detail.teams.push(pair.team);
    }
    details.set(key, detail);
    seen.set(key, ids);
  }
  return details;
}

/**
 * The teams of contest `contestId` whose agents saw an executable with fingerprint `sha256` start:
 * the claimants an admin's "Bloquear" records for that fingerprint, by team id.
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
