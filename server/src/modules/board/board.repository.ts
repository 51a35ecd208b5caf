import { LockMode, type FilterQuery, type QueryOrderMap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import type { BoardTeam } from '@concurso/shared';
import { Team, type ITeam } from '../teams/team.entity.js';
import { StatusTeam } from '../teams/status-team.entity.js';
import { TeamStatusChange } from '../teams/team-status-change.entity.js';

/*
 * The board's reads and writes of `teams` (DESIGN.md section 6), through the EntityManager and the
 * teams module's entities: every function takes the EntityManager first, so it runs inside the
 * caller's `transaction(em, work)` and sees what that transaction wrote.
 */

/**
 * Board rows of the teams matching `where`, as plain `BoardTeam` objects (key order is that of the
 * `team.updated` payload). Read past the identity map (`disableIdentityMap`), in the caller's
 * transaction: a row always shows what the database holds now, also right after a native update.
 */
async function findBoardTeams(
  em: EntityManager,
  where: FilterQuery<ITeam>,
  orderBy?: QueryOrderMap<ITeam>,
): Promise<BoardTeam[]> {
  const teams = await em.find(Team, where, {
    fields: ['name', 'level', 'number_attempts', 'version', 'agentOnline', 'statusTeam.status'],
    orderBy,
    disableIdentityMap: true,
  });
  return teams.map((team) => ({
    id: team.id,
    name: team.name,
    levels_id: team.level.id,
    number_attempts: team.number_attempts,
    status_team: { id: team.statusTeam.id, status: team.statusTeam.status },
    agent_online: team.agentOnline,
    version: team.version,
  }));
}

/** One team as a board row (the `team.updated` payload), or null when it does not exist. */
export async function boardTeam(em: EntityManager, teamId: number): Promise<BoardTeam | null> {
  return (await findBoardTeams(em, { id: teamId }))[0] ?? null;
}

/** Several teams as board rows, in no particular order; ids that do not exist are left out. */
export async function boardTeams(em: EntityManager, teamIds: readonly number[]): Promise<BoardTeam[]> {
  return teamIds.length === 0 ? [] : findBoardTeams(em, { id: { $in: [...teamIds] } });
}

/** The board rows of a contest's teams, by name (then id), every level together. */
export async function contestBoardTeams(em: EntityManager, contestId: number): Promise<BoardTeam[]> {
  return findBoardTeams(em, { contest: contestId }, { name: 'asc', id: 'asc' });
}

/**
 * Team `teamId` with its status and `version`, its row locked until the transaction ends so concurrent
 * toggles, attempts and heartbeats of the team queue; null when it does not exist.
 */
export async function lockTeam(em: EntityManager, teamId: number) {
  return em.findOne(Team, teamId, {
    fields: ['statusTeam', 'version'],
    lockMode: LockMode.PESSIMISTIC_WRITE,
  });
}

/** A team as `lockTeam` answers it. */
export type LockedTeam = NonNullable<Awaited<ReturnType<typeof lockTeam>>>;

/**
 * Sets a locked team's status to `to`, bumps its `version` (the boards drop older rows) and writes the
 * audit row with the judge `userId` and the time (SPEC.md section 4), in the caller's transaction.
 */
export async function changeTeamStatus(
  em: EntityManager,
  team: LockedTeam,
  to: number,
  userId: number,
): Promise<void> {
  const from = team.statusTeam.id;
  team.statusTeam = em.getReference(StatusTeam, to);
  team.version += 1;
  em.create(TeamStatusChange, { team: team.id, from, to, user: userId, at: new Date() });
  await em.flush();
}
