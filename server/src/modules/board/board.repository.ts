import type { FilterQuery, QueryOrderMap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import { agentAlertOf, type BoardTeam } from '@concurso/shared';
import { Team } from '../teams/index.js';
import type { IStatusTeam, ITeam } from '../teams/index.js';

/*
 * The board's reads of `teams` (DESIGN.md section 6; what changes a row is teams/team-row-writer.ts), through the EntityManager and its
 * QueryBuilder on the teams module's entities: every function takes the EntityManager first, so it
 * runs inside the caller's `transaction(em, work)` and sees what that transaction wrote.
 */

/** What the board query answers per team: the entity's columns, the two references' ids, the status name. */
type BoardRowData = Pick<
  ITeam,
  'id' | 'name' | 'number_attempts' | 'agentOnline' | 'agentAlert' | 'version'
> & {
  level: number;
  statusTeam: number;
  status: IStatusTeam['status'];
};

/**
 * Board rows of the teams matching `where`, as plain `BoardTeam` objects (what the snapshot lists and
 * a `board.frame` row encodes), in the caller's transaction. One QueryBuilder query, mapped to property
 * names but not to entities: hydrating entities cost 5 to 10 times the query itself for a few hundred
 * teams, and this runs inside every attempts group (rows locked) and for every screen's snapshot.
 */
async function findBoardTeams(
  em: EntityManager,
  where: FilterQuery<ITeam>,
  orderBy: QueryOrderMap<ITeam> = {},
): Promise<BoardTeam[]> {
  const rows = await em
    .createQueryBuilder(Team, 't')
    .select([
      'id',
      'name',
      'level',
      'number_attempts',
      'statusTeam',
      's.status',
      'agentOnline',
      'agentAlert',
      'version',
    ])
    .join('t.statusTeam', 's')
    .where(where)
    .orderBy(orderBy)
    .execute<BoardRowData[]>('all');
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    levels_id: row.level,
    number_attempts: row.number_attempts,
    status_team: { id: row.statusTeam, status: row.status },
    agent_online: row.agentOnline,
    agent_alert: row.agentOnline ? null : agentAlertOf(row.agentAlert),
    version: row.version,
  }));
}

/** One team as a board row (`app.board.teamUpdated` pushes it), or null when it does not exist. */
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
