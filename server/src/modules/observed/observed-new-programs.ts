import type { EntityManager } from '@mikro-orm/mysql';
import { NEW_PROGRAM_AFTER_MS, normaliseExecutableName, type AgentObservedProcess } from '@concurso/shared';
import { dbDate, sqlDateTime } from '../../db/sql.js';
import { Team, clearNewProgramMarks, setNewProgramMark, type NewProgramMark } from '../teams/index.js';
import { foldName } from './observed-matching.js';

/*
 * «Programa nuevo» (docs/design.md section 6a: a program is known by what it is, and an unknown tool is
 * looked at while it runs). The rule, in one place:
 * - The contest's first minutes are `NEW_PROGRAM_AFTER_MS` from its first observed start (the earliest
 *   `first_seen` of its inventory): every team opens its IDEs, browsers and terminals then, so nothing
 *   a team first ran in them is new.
 * - A program's identity is its name as the agent compares names (`normaliseExecutableName`: no case,
 *   no `.exe`; on the folded `name_key`) OR its SHA-256: another team's row with the same name, or with
 *   the same bytes under another name (a renamed copy of chrome), makes it known.
 * - So a team's program is new when it first ran after the first minutes, and no other team ran it, and
 *   the team itself did not run it (by name or bytes) in the first minutes. A program with a new name
 *   and new bytes is new; the same program run by a second team stops being new for both.
 * Dates are the agents' clocks (`first_seen`, `last_seen`), as the inventory stores them.
 *
 * Bounded whatever a key sends (docs/design.md section 6a): the rule is asked of a team's own rows first
 * seen after the first minutes only, and answered in the database with `not exists` (the first row of
 * another team stops the search), never by loading every team's rows of a common program.
 */

/** The name a program is known by: its folded name as the agent compares names ('chrome.exe' → 'chrome'). */
const programName = (nameKey: string) => normaliseExecutableName(nameKey);

/** `programName` of `o.name_key` in SQL (`name_key` is already folded to lower case). */
const PROGRAM_NAME_SQL =
  "if(right(o.name_key, 4) = '.exe', left(o.name_key, char_length(o.name_key) - 4), o.name_key)";

/**
 * When contest `contestId`'s first minutes end (its first observed start plus `NEW_PROGRAM_AFTER_MS`),
 * or null while nothing was observed. Read from the index `observed_processes_first_seen`.
 */
async function newProgramsFrom(em: EntityManager, contestId: number): Promise<Date | null> {
  const [row] = await em
    .getConnection()
    .execute<Array<{ first: Date | string | null }>>(
      'select min(first_seen) as first from observed_processes where contests_id = ?',
      [contestId],
      'all',
      em.getTransactionContext(),
    );
  if (row?.first == null) return null;
  return new Date(dbDate(row.first).getTime() + NEW_PROGRAM_AFTER_MS);
}

/**
 * Which of the inventory rows `ids` of contest `contestId` are new programs (the rule above), given
 * `from`, the end of its first minutes: first seen at or after it, and no row of another team, nor one
 * of the same team first seen before `from`, has its `programName` (`name_key` with or without `.exe`)
 * or its SHA-256. Each `not exists` is an index lookup (`observed_processes_program`,
 * `observed_processes_sha256`).
 */
async function newProgramIds(
  em: EntityManager,
  contestId: number,
  from: Date,
  ids: readonly number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const before = sqlDateTime(from);
  const rows = await em
    .getConnection()
    .execute<Array<{ id: number }>>(
      `select o.id as id from observed_processes o where o.contests_id = ? and o.id in (${ids.map(() => '?').join(', ')}) ` +
        'and o.first_seen >= ? ' +
        'and not exists (select 1 from observed_processes r where r.contests_id = o.contests_id ' +
        `and r.name_key in (${PROGRAM_NAME_SQL}, concat(${PROGRAM_NAME_SQL}, '.exe')) ` +
        'and (r.teams_id <> o.teams_id or r.first_seen < ?)) ' +
        "and (o.sha256 = '' or not exists (select 1 from observed_processes r where r.contests_id = o.contests_id " +
        'and r.sha256 = o.sha256 and (r.teams_id <> o.teams_id or r.first_seen < ?)))',
      [contestId, ...ids, before, before, before],
      'all',
      em.getTransactionContext(),
    );
  return new Set(rows.map((row) => Number(row.id)));
}

/**
 * After team `teamId`'s report `reported` was stored in contest `contestId`, in the caller's
 * transaction: the team's board mark becomes the newest new program of the report (by its latest
 * start) unless it already marks a later one, and the other teams whose mark is a program this report
 * ran (same `programName` or bytes) lose it. Answers the teams whose mark changed (their board rows to
 * push once the transaction commits). A mark taken off is not replaced by an older new program of that
 * team: its next report of a new program sets it again.
 */
export async function markNewPrograms(
  em: EntityManager,
  contestId: number,
  teamId: number,
  reported: readonly AgentObservedProcess[],
): Promise<number[]> {
  if (reported.length === 0) return [];
  const from = await newProgramsFrom(em, contestId);
  if (from === null) return [];
  const connection = em.getConnection();
  const ctx = em.getTransactionContext();

  // Other teams' marks this report makes known (at most one per team of the contest).
  const names = new Set(reported.map((row) => programName(foldName(row.name))));
  const shas = new Set(reported.flatMap((row) => (row.sha256 ? [row.sha256] : [])));
  const marked = await connection.execute<
    Array<{ team: number; observed: number; name_key: string; sha256: string }>
  >(
    'select t.id as team, o.id as observed, o.name_key as name_key, o.sha256 as sha256 from teams t ' +
      'join observed_processes o on o.id = t.new_program_id where t.contests_id = ? and t.id <> ?',
    [contestId, teamId],
    'all',
    ctx,
  );
  const known = marked.filter((mark) => names.has(programName(mark.name_key)) || shas.has(mark.sha256));
  const changed = await clearNewProgramMarks(
    em,
    known.map((mark) => mark.team),
    known.map((mark) => mark.observed),
  );

  // The team's own rows of this report (the unique index's names), those first seen after the first
  // minutes being the only ones that may be new.
  const reportedNames = [...new Set(reported.map((row) => row.name))];
  const own = await connection.execute<
    Array<{ id: number; name: string; first_seen: Date | string; last_seen: Date | string }>
  >(
    'select id, name, first_seen, last_seen from observed_processes where contests_id = ? and teams_id = ? ' +
      `and name in (${reportedNames.map(() => '?').join(', ')})`,
    [contestId, teamId, ...reportedNames],
    'all',
    ctx,
  );
  const candidates = own.filter((row) => dbDate(row.first_seen) >= from);
  const fresh = await newProgramIds(
    em,
    contestId,
    from,
    candidates.map((row) => row.id),
  );
  let newest: NewProgramMark | null = null;
  for (const row of candidates) {
    if (!fresh.has(row.id)) continue;
    const at = dbDate(row.last_seen);
    if (newest === null || at > newest.at) newest = { name: row.name, at, observedId: row.id };
  }
  if (newest === null) return changed;
  const current = await em.findOne(Team, teamId, { fields: ['newProgramAt'] });
  const currentAt = current?.newProgramAt ?? null;
  if (currentAt === null || newest.at >= currentAt) {
    await setNewProgramMark(em, teamId, newest);
    changed.push(teamId);
  }
  return changed;
}

/** What /procesosObservados shows of a program only one team ran: «nuevo», and where. */
export interface OneTeamProgram {
  isNew: boolean;
  /** Host name of its latest reported start; null when the agent did not say. */
  hostname: string | null;
  /** Full path of its latest reported start; null when unknown. */
  path: string | null;
}

/**
 * For the inventory page's programs that one team ran (`machines` 1), by `key(name_key, sha256)`:
 * whether each is new (the rule above) and the machine and path of its latest start. Programs of
 * several teams are never new and name no machine (their teams are listed).
 */
export async function oneTeamPrograms(
  em: EntityManager,
  contestId: number,
  page: ReadonlyArray<{ name_key: string; sha256: string; machines: number | string }>,
  key: (nameKey: string, sha256: string) => string,
): Promise<Map<string, OneTeamProgram>> {
  const result = new Map<string, OneTeamProgram>();
  const single = page.filter((row) => Number(row.machines) === 1);
  if (single.length === 0) return result;
  const rows = await em.getConnection().execute<
    Array<{
      id: number;
      name_key: string;
      sha256: string;
      first_seen: Date | string;
      last_seen: Date | string;
      hostname: string;
      path: string;
    }>
  >('select id, name_key, sha256, first_seen, last_seen, hostname, path from observed_processes ' + `where contests_id = ? and (name_key, sha256) in (${single.map(() => '(?, ?)').join(', ')})`, [contestId, ...single.flatMap((row) => [row.name_key, row.sha256])]);
  const from = await newProgramsFrom(em, contestId);
  const fresh =
    from === null
      ? new Set<number>()
      : await newProgramIds(
          em,
          contestId,
          from,
          rows.filter((row) => dbDate(row.first_seen) >= from).map((row) => row.id),
        );
  // A program's latest start names its machine and path (a team may have several machines).
  const latest = new Map<string, number>();
  for (const row of rows) {
    const id = key(row.name_key, row.sha256);
    const last = dbDate(row.last_seen).getTime();
    if ((latest.get(id) ?? -Infinity) >= last) continue;
    latest.set(id, last);
    result.set(id, {
      isNew: fresh.has(Number(row.id)),
      hostname: row.hostname === '' ? null : row.hostname,
      path: row.path === '' ? null : row.path,
    });
  }
  return result;
}
