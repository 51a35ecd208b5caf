import { LockMode, type Loaded, type RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import { TEAM_STATUS, type TeamInput, type TeamRow } from '@concurso/shared';
import { HttpError, fieldError } from '../../lib/http-error.js';
import type { CatalogUsage } from '../catalogs/index.js';
import { Coach } from '../coaches/index.js';
import { Contest } from '../contests/index.js';
import { Level } from '../levels/index.js';
import { nextVersion } from './team-row-writer.js';
import { Team, type ITeam } from './team.entity.js';

/**
 * The teams module's reads and writes of `teams` (docs/design.md section 3): the `getTeams` rows, the
 * catalogue writes and the checks a team's input needs. (The board rows every push carries are read in
 * board-rows.repository.ts; a status change is written by team-row-writer.ts.) Functions take the EntityManager first
 * so they run inside `transaction(em, work)` forks.
 */

/** What a `getTeams` row embeds (docs/spec.md section 3). */
const TEAM_ROW_POPULATE = ['statusTeam', 'coach', 'level', 'contest'] as const;
type TeamWithNames = Loaded<ITeam, (typeof TEAM_ROW_POPULATE)[number]>;

function toTeamRow(team: TeamWithNames): TeamRow {
  return {
    id: team.id,
    name: team.name,
    levels_id: team.level.id,
    coaches_id: team.coach.id,
    contests_id: team.contest.id,
    number_attempts: team.number_attempts,
    status_team: { id: team.statusTeam.id, status: team.statusTeam.status },
    coach: { id: team.coach.id, name: team.coach.name },
    level: { id: team.level.id, level: team.level.level },
    contest: { id: team.contest.id, calendar: team.contest.calendar },
    has_agent_key: team.agentKeyHash != null,
  };
}

/** Every team of every contest with the names docs/spec.md section 3 embeds, oldest first (one joined query). */
export async function listTeamRows(em: EntityManager): Promise<TeamRow[]> {
  const teams = await em.find(Team, {}, { populate: TEAM_ROW_POPULATE, orderBy: { id: 'asc' } });
  return teams.map(toTeamRow);
}

/** One team as `getTeams` lists it, or null. */
async function findTeamRow(em: EntityManager, id: number): Promise<TeamRow | null> {
  const team = await em.findOne(Team, id, { populate: TEAM_ROW_POPULATE });
  return team ? toTeamRow(team) : null;
}

/** A team entity, or null; later reads of it through the same `em` answer from its identity map. */
export function findTeam(em: EntityManager, id: number) {
  return em.findOne(Team, id);
}

/** 404 'No se encontró el equipo.' unless the team exists (a team's members and logs ask first). */
export async function requireTeam(em: EntityManager, id: number): Promise<void> {
  if ((await em.count(Team, { id })) === 0) throw new HttpError(404, 'No se encontró el equipo.');
}

/**
 * Checks a team's references and that its name is free in `contestId` (names are unique within a
 * contest, docs/design.md section 3). 422 for a missing level or coach, 409 for a taken name.
 */
export async function checkTeamInput(
  em: EntityManager,
  input: TeamInput,
  contestId: number,
  exceptId = 0,
): Promise<void> {
  if ((await em.count(Level, { id: input.levels_id })) === 0) {
    throw fieldError('levels_id', 'El nivel seleccionado no existe.');
  }
  if ((await em.count(Coach, { id: input.coaches_id })) === 0) {
    throw fieldError('coaches_id', 'El coach seleccionado no existe.');
  }
  if ((await em.count(Team, { contest: contestId, name: input.name, id: { $ne: exceptId } })) > 0) {
    throw new HttpError(409, `Ya existe un equipo llamado "${input.name}" en este concurso.`);
  }
}

/** Inserts a team of `contestId` (status Activo, no attempts) and answers its `getTeams` row. */
export async function insertTeam(em: EntityManager, input: TeamInput, contestId: number): Promise<TeamRow> {
  const team = em.create(
    Team,
    {
      name: input.name,
      level: em.getReference(Level, input.levels_id),
      coach: em.getReference(Coach, input.coaches_id),
      contest: em.getReference(Contest, contestId),
    },
    { partial: true },
  );
  await em.flush();
  return (await findTeamRow(em, team.id))!;
}

/**
 * Renames a team or moves it to another level, coach or contest (`contestId`; its members follow with
 * the caller's `moveMembers`, teams.routes.ts), and bumps its `version` so the boards take the change (docs/design.md
 * section 6). Answers its `getTeams` row.
 */
export async function updateTeam(
  em: EntityManager,
  team: Loaded<ITeam>,
  input: TeamInput,
  contestId = team.contest.id,
): Promise<TeamRow> {
  em.assign(team, {
    name: input.name,
    level: em.getReference(Level, input.levels_id),
    coach: em.getReference(Coach, input.coaches_id),
    // Loaded, not a reference: the answered row embeds the contest's calendar.
    contest: contestId === team.contest.id ? team.contest : await em.findOneOrFail(Contest, contestId),
  });
  // By the database (`nextVersion`, team-row-writer.ts): agents' attempts bump it concurrently.
  team.version = nextVersion();
  await em.flush();
  return (await findTeamRow(em, team.id))!;
}

/** Deletes a team; its members, attempts and audit rows go with it (docs/design.md section 3). False when unknown. */
export async function deleteTeam(em: EntityManager, id: number): Promise<boolean> {
  return (await em.nativeDelete(Team, { id })) > 0;
}

/**
 * The names of contest `contestId`'s teams among `names`, as stored; the database's collation
 * compares them (case and accents ignored). For the bulk import, which creates new teams
 * only.
 */
export async function findContestTeamNames(
  em: EntityManager,
  contestId: number,
  names: readonly string[],
): Promise<string[]> {
  if (names.length === 0) return [];
  const teams = await em.find(Team, { contest: contestId, name: { $in: [...names] } }, { fields: ['name'] });
  return teams.map((team) => team.name);
}

/** A team the bulk import creates: its name and the ids of its level and coach. */
export interface NewTeam {
  name: string;
  levels_id: number;
  coaches_id: number;
}

/**
 * Inserts `teams` into contest `contestId` in one statement (`em.insertMany`: status Activo, no
 * attempts, version 1), created by import `teamImportId` when given (its undo), and answers
 * each one's id and stored name, read back by name: a multi-row insert's ids are not promised to be
 * consecutive. For the bulk import, in its transaction.
 */
export async function insertTeams(
  em: EntityManager,
  contestId: number,
  teams: readonly NewTeam[],
  teamImportId: number | null = null,
): Promise<Array<{ id: number; name: string }>> {
  if (teams.length === 0) return [];
  const now = new Date();
  const rows = teams.map((team) => ({
    name: team.name,
    level: team.levels_id,
    coach: team.coaches_id,
    contest: contestId,
    statusTeam: TEAM_STATUS.active,
    number_attempts: 0,
    version: 1,
    agentOnline: false,
    teamImportId,
    createdAt: now,
    updatedAt: now,
  }));
  // No agent key yet (null); MikroORM 6.6 types the hidden nullable key column as required.
  await em.insertMany<ITeam>(Team, rows as RequiredEntityData<ITeam>[]);
  const created = await em.find(
    Team,
    { contest: contestId, name: { $in: teams.map((team) => team.name) } },
    { fields: ['id', 'name'] },
  );
  return created.map((team) => ({ id: team.id, name: team.name }));
}

/** A team an import's undo deletes: what the boards and the refusal need. */
export interface ImportedTeam {
  id: number;
  name: string;
  levels_id: number;
  number_attempts: number;
}

/**
 * The teams import `teamImportId` created that are still there, their rows locked until the caller's
 * transaction ends, so no attempt lands on one between the undo's check and its delete.
 */
export async function lockImportedTeams(em: EntityManager, teamImportId: number): Promise<ImportedTeam[]> {
  const teams = await em.find(
    Team,
    { teamImportId },
    {
      fields: ['id', 'name', 'level', 'number_attempts'],
      lockMode: LockMode.PESSIMISTIC_WRITE,
      orderBy: { id: 'asc' },
    },
  );
  return teams.map((team) => ({
    id: team.id,
    name: team.name,
    levels_id: team.level.id,
    number_attempts: team.number_attempts,
  }));
}

/** Deletes teams `ids` (their members, attempts and audit rows go by the foreign keys, like {@link deleteTeam}). */
export async function deleteTeams(em: EntityManager, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  return em.nativeDelete(Team, { id: { $in: [...ids] } });
}

/**
 * The catalogue rows a team uses, which it keeps from being deleted (the 409 "in use"): its level, its
 * coach, its contest ('N equipo(s)'). Handed to the catalogues by app.ts (`catalogUsages`).
 */
export const teamUsages: readonly CatalogUsage[] = [
  { catalog: 'levels', one: 'equipo', many: 'equipos', count: (em, id) => em.count(Team, { level: id }) },
  { catalog: 'coaches', one: 'equipo', many: 'equipos', count: (em, id) => em.count(Team, { coach: id }) },
  { catalog: 'contests', one: 'equipo', many: 'equipos', count: (em, id) => em.count(Team, { contest: id }) },
];
