import type { EntityManager } from '@mikro-orm/mysql';
import { IMPORT_MESSAGES, foldName, type MemberInput } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';
import { careerRows } from '../careers/index.js';
import { coachRows } from '../coaches/index.js';
import { levelRows } from '../levels/index.js';
import { findTakenCodes, insertMembers } from '../members/index.js';
import {
  deleteTeams,
  findContestTeamNames,
  insertTeams,
  lockImportedTeams,
  type ImportedTeam,
} from '../teams/index.js';
import { checkImport, importKeys, type ImportCheck, type ImportLookups } from './import-check.js';
import type { SheetRow } from './import-rows.js';
import { insertTeamImport, lockTeamImport, markImportUndone } from './team-imports.repository.js';

/**
 * What the checks of a file need from the database for contest `contestId`: the levels,
 * coaches and careers, and the contest's teams and member codes that collide with the file's names and
 * codes. Read in the caller's EntityManager (the import's transaction), one query after another.
 */
async function importLookups(
  em: EntityManager,
  contestId: number,
  rows: readonly SheetRow[],
): Promise<ImportLookups> {
  const { teamNames, codes } = importKeys(rows);
  const levels = (await levelRows.list(em)).map((row) => ({ id: row.id, name: row.level }));
  const coaches = (await coachRows.list(em)).map((row) => ({ id: row.id, name: row.name }));
  const careers = (await careerRows.list(em)).map((row) => ({
    id: row.id,
    name: row.name,
    departament: row.departament?.name ?? '',
  }));
  const existingTeams = await findContestTeamNames(em, contestId, teamNames);
  const takenCodes = await findTakenCodes(em, contestId, codes);
  return { levels, coaches, careers, existingTeams, takenCodes };
}

/** Checks a file's rows against contest `contestId` (the preview): nothing is written. */
export async function checkRows(
  em: EntityManager,
  contestId: number,
  rows: readonly SheetRow[],
): Promise<ImportCheck> {
  return checkImport(rows, await importLookups(em, contestId, rows));
}

/** What {@link importRows} did: the checks, and the ids of the teams created (none when it refused). */
export interface ImportOutcome {
  check: ImportCheck;
  teamIds: number[];
}

/** Where an import's rows came from: the file's name and the admin who sent it ('Importaciones' lists it). */
export interface ImportSource {
  fileName: string;
  userId: number | null;
}

/**
 * The import itself, in the caller's transaction: checks the rows again against the
 * contest as it is now and, only when no row has a problem, records the import (`team_imports`, so it
 * can be undone) and inserts every team (one statement) and every member (a statement per
 * 500) of contest `contestId`. With problems it writes nothing and answers them. The caller's
 * transaction makes it all or nothing; the unique indexes on (contest, team name) and (contest, code)
 * refuse what a concurrent import slipped in.
 */
export async function importRows(
  em: EntityManager,
  contestId: number,
  rows: readonly SheetRow[],
  source: ImportSource,
): Promise<ImportOutcome> {
  const check = await checkRows(em, contestId, rows);
  if (check.errors.length > 0) return { check, teamIds: [] };
  const teamImportId = await insertTeamImport(em, {
    contestId,
    userId: source.userId,
    fileName: source.fileName,
    teams: check.teams.length,
    members: check.teams.reduce((sum, team) => sum + team.members.length, 0),
  });
  const created = await insertTeams(
    em,
    contestId,
    check.teams.map((team) => ({ name: team.name, levels_id: team.levels_id, coaches_id: team.coaches_id })),
    teamImportId,
  );
  const idOf = new Map(created.map((team) => [foldName(team.name), team.id]));
  const members: MemberInput[] = check.teams.flatMap((team) => {
    const teamId = idOf.get(foldName(team.name));
    if (teamId === undefined) throw new Error(`El equipo ${team.name} no se encontró tras insertarlo`);
    return team.members.map((member) => ({ teams_id: teamId, ...member }));
  });
  await insertMembers(em, contestId, members);
  return { check, teamIds: created.map((team) => team.id) };
}

/**
 * Undoes import `id`, in the caller's transaction: deletes the teams it created that are
 * still there (their members, keys and logs go with them) and marks it undone, answering the teams
 * deleted for the boards. The import's row and its teams' rows are locked first, so an attempt cannot
 * land between the check and the delete.
 * @throws HttpError 404 unknown import; 409 already undone, or a team of it has attempts (a contest's
 *   record is never erased in bulk).
 */
export async function undoImport(em: EntityManager, id: number): Promise<ImportedTeam[]> {
  const teamImport = await lockTeamImport(em, id);
  if (!teamImport) throw new HttpError(404, IMPORT_MESSAGES.importNotFound);
  if (teamImport.undoneAt) throw new HttpError(409, IMPORT_MESSAGES.alreadyUndone);
  const teams = await lockImportedTeams(em, id);
  const busy = teams.find((team) => team.number_attempts > 0);
  if (busy) throw new HttpError(409, IMPORT_MESSAGES.undoHasAttempts(busy.name, busy.number_attempts));
  await deleteTeams(
    em,
    teams.map((team) => team.id),
  );
  await markImportUndone(em, id);
  return teams;
}
