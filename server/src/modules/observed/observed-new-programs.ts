import type { EntityManager } from '@mikro-orm/mysql';
import { NEW_PROGRAM_AFTER_MS, normaliseExecutableName, type AgentObservedProcess } from '@concurso/shared';
import { Team, clearNewProgramMarks, setNewProgramMark, type NewProgramMark } from '../teams/index.js';
import { foldName } from './observed-matching.js';

/*
 * «Programa nuevo» (DESIGN.md section 6a: a program is known by what it is, and an unknown tool is
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
 */

/**
 * A date as the database answers it: a `Date`, or UTC text without a zone (the connections read dates
 * as strings, db/sql.ts), which `new Date` alone would read in the server's own zone.
 */
function utcDate(value: Date | string): Date {
  return value instanceof Date
    ? value
    : new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
}

/** An inventory row as the rule reads it. */
interface SeenRow {
  id: number;
  teams_id: number;
  name: string;
  name_key: string;
  sha256: string;
  first_seen: Date;
  last_seen: Date;
}

/** The name a program is known by: its folded name as the agent compares names ('chrome.exe' → 'chrome'). */
export const programName = (nameKey: string) => normaliseExecutableName(nameKey);

/** The `name_key`s that are `programName` `name`: with and without `.exe` (so the index answers). */
const nameKeysOf = (name: string) => [name, `${name}.exe`];

/**
 * When contest `contestId`'s first minutes end (its first observed start plus `NEW_PROGRAM_AFTER_MS`),
 * or null while nothing was observed. Read from the index `observed_processes_first_seen`.
 */
export async function newProgramsFrom(em: EntityManager, contestId: number): Promise<Date | null> {
  const [row] = await em
    .getConnection()
    .execute<Array<{ first: Date | string | null }>>(
      'select min(first_seen) as first from observed_processes where contests_id = ?',
      [contestId],
      'all',
      em.getTransactionContext(),
    );
  if (row?.first == null) return null;
  return new Date(utcDate(row.first).getTime() + NEW_PROGRAM_AFTER_MS);
}

/**
 * Whether `own` (a row of one team) is a new program, given `rows`: every row of the contest with its
 * `programName` or its SHA-256 (any may be left out that matches neither), and `from`, the end of the
 * contest's first minutes. See the rule above.
 */
export function isNewProgram(
  own: Pick<SeenRow, 'teams_id' | 'name_key' | 'sha256' | 'first_seen'>,
  rows: ReadonlyArray<Pick<SeenRow, 'teams_id' | 'name_key' | 'sha256' | 'first_seen'>>,
  from: Date,
): boolean {
  if (own.first_seen.getTime() < from.getTime()) return false;
  const name = programName(own.name_key);
  return !rows.some(
    (row) =>
      (programName(row.name_key) === name || (own.sha256 !== '' && row.sha256 === own.sha256)) &&
      (row.teams_id !== own.teams_id || row.first_seen.getTime() < from.getTime()),
  );
}

/**
 * The rows of contest `contestId` whose `programName` is one of `names` or whose SHA-256 is one of
 * `shas` (`''` left out), by the indexes `observed_processes_program` and `observed_processes_sha256`.
 */
async function rowsLike(
  em: EntityManager,
  contestId: number,
  names: ReadonlySet<string>,
  shas: ReadonlySet<string>,
): Promise<SeenRow[]> {
  const keys = [...names].flatMap(nameKeysOf);
  const fingerprints = [...shas].filter((sha) => sha !== '');
  const columns =
    'select id, teams_id, name, name_key, sha256, first_seen, last_seen from observed_processes where contests_id = ?';
  const parts: string[] = [];
  const params: unknown[] = [];
  if (keys.length > 0) {
    parts.push(`${columns} and name_key in (${keys.map(() => '?').join(', ')})`);
    params.push(contestId, ...keys);
  }
  if (fingerprints.length > 0) {
    parts.push(`${columns} and sha256 in (${fingerprints.map(() => '?').join(', ')})`);
    params.push(contestId, ...fingerprints);
  }
  if (parts.length === 0) return [];
  const rows = await em
    .getConnection()
    .execute<
      Array<
        Omit<SeenRow, 'first_seen' | 'last_seen'> & { first_seen: Date | string; last_seen: Date | string }
      >
    >(parts.join(' union '), params, 'all', em.getTransactionContext());
  return rows.map((row) => ({
    ...row,
    first_seen: utcDate(row.first_seen),
    last_seen: utcDate(row.last_seen),
  }));
}

/**
 * After team `teamId`'s report `reported` was stored in contest `contestId`, in the caller's
 * transaction: the team's board mark becomes the newest new program of the report (by its latest
 * start) unless it already marks a later one, and the other teams whose mark is a program this report
 * makes known (same name or bytes) lose it. Answers the teams whose mark changed (their boards rows to
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
  const current = await em.findOne(Team, teamId, { fields: ['newProgramAt'] });
  const names = new Set(reported.map((row) => programName(foldName(row.name))));
  const shas = new Set(reported.map((row) => row.sha256 ?? ''));
  const rows = await rowsLike(em, contestId, names, shas);

  const changed = await clearNewProgramMarks(
    em,
    [...new Set(rows.filter((row) => row.teams_id !== teamId).map((row) => row.teams_id))],
    rows.filter((row) => row.teams_id !== teamId).map((row) => row.id),
  );

  const reportedKeys = new Set(reported.map((row) => `${foldName(row.name)}\u0000${row.sha256 ?? ''}`));
  let newest: NewProgramMark | null = null;
  for (const row of rows) {
    if (row.teams_id !== teamId || !reportedKeys.has(`${row.name_key}\u0000${row.sha256}`)) continue;
    if (!isNewProgram(row, rows, from)) continue;
    if (newest === null || row.last_seen > newest.at) {
      newest = { name: row.name, at: row.last_seen, observedId: row.id };
    }
  }
  const currentAt = current?.newProgramAt ?? null;
  if (newest !== null && (currentAt === null || newest.at >= currentAt)) {
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
      teams_id: number;
      name_key: string;
      sha256: string;
      first_seen: Date | string;
      last_seen: Date | string;
      hostname: string;
      path: string;
    }>
  >('select teams_id, name_key, sha256, first_seen, last_seen, hostname, path from observed_processes ' + `where contests_id = ? and (name_key, sha256) in (${single.map(() => '(?, ?)').join(', ')})`, [contestId, ...single.flatMap((row) => [row.name_key, row.sha256])]);
  const from = await newProgramsFrom(em, contestId);
  const like =
    from === null
      ? []
      : await rowsLike(
          em,
          contestId,
          new Set(single.map((row) => programName(row.name_key))),
          new Set(single.map((row) => row.sha256)),
        );
  // A program's latest start names its machine and path (a team may have several machines).
  const latest = new Map<string, number>();
  for (const row of rows) {
    const id = key(row.name_key, row.sha256);
    const last = utcDate(row.last_seen).getTime();
    if ((latest.get(id) ?? -Infinity) >= last) continue;
    latest.set(id, last);
    result.set(id, {
      isNew: from !== null && isNewProgram({ ...row, first_seen: utcDate(row.first_seen) }, like, from),
      hostname: row.hostname === '' ? null : row.hostname,
      path: row.path === '' ? null : row.path,
    });
  }
  return result;
}
