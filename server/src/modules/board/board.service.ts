import type { EntityManager } from '@mikro-orm/mysql';
import { transaction } from '../../db/transaction.js';
import { LEVELS, TEAM_STATUS, type BoardTeam, type TeamAttempts } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';

interface BoardRowSql {
  id: number;
  name: string;
  levels_id: number;
  number_attempts: number;
  status_team_id: number;
  status: string;
  version: number;
  agent_online: number;
}

/** The current contest (DESIGN.md section 3): latest date, then highest id; null when none. */
export async function currentContest(
  em: EntityManager,
): Promise<{ id: number; calendar: string; date: string } | null> {
  const rows = await em.execute<Array<{ id: number; calendar: string; date: Date | string }>>(
    'select id, calendar, date from contests order by date desc, id desc limit 1',
  );
  const row = rows[0];
  if (!row) return null;
  return { id: Number(row.id), calendar: row.calendar, date: toIsoDate(row.date) };
}

/** `YYYY-MM-DD` from a DATE column however the driver returned it. */
export function toIsoDate(value: Date | string): string {
  return typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}

function toBoardTeam(row: BoardRowSql): BoardTeam {
  return {
    id: Number(row.id),
    name: row.name,
    levels_id: Number(row.levels_id),
    number_attempts: Number(row.number_attempts),
    status_team: { id: Number(row.status_team_id), status: row.status },
    agent_online: Boolean(Number(row.agent_online)),
    version: Number(row.version),
  };
}

const BOARD_SELECT = `select t.id, t.name, t.levels_id, t.number_attempts, t.status_team_id, s.status, t.version,
  t.agent_online from teams t join status_team s on s.id = t.status_team_id`;

/** One team as a board row (the `team.updated` payload), read through `em` (inside a transaction if any). */
export async function boardTeam(em: EntityManager, teamId: number): Promise<BoardTeam | null> {
  const rows = await em.execute<BoardRowSql[]>(`${BOARD_SELECT} where t.id = ?`, [teamId]);
  return rows[0] ? toBoardTeam(rows[0]) : null;
}

/** Several teams as board rows, in no particular order; ids that do not exist are left out. */
export async function boardTeams(em: EntityManager, teamIds: number[]): Promise<BoardTeam[]> {
  if (teamIds.length === 0) return [];
  const rows = await em.execute<BoardRowSql[]>(
    `${BOARD_SELECT} where t.id in (${teamIds.map(() => '?').join(', ')})`,
    teamIds,
  );
  return rows.map(toBoardTeam);
}

/**
 * The snapshot of `GET /api/teamAttempts` (SPEC.md section 7): the current contest's teams split into
 * `basico`, `intermedio` and `avanzado` by the seeded level ids, each sorted by name.
 */
export async function teamAttempts(em: EntityManager): Promise<TeamAttempts> {
  const contest = await currentContest(em);
  const result: TeamAttempts = { contest, basico: [], intermedio: [], avanzado: [] };
  if (!contest) return result;
  const rows = await em.execute<BoardRowSql[]>(
    `${BOARD_SELECT} where t.contests_id = ? order by t.name, t.id`,
    [contest.id],
  );
  for (const row of rows) {
    const team = toBoardTeam(row);
    if (team.levels_id === LEVELS.basico) result.basico.push(team);
    else if (team.levels_id === LEVELS.intermedio) result.intermedio.push(team);
    else if (team.levels_id === LEVELS.avanzado) result.avanzado.push(team);
  }
  return result;
}

/**
 * Blocks an active team or unblocks a blocked one (SPEC.md section 4: status 1 ↔ 2) in one
 * transaction that locks the row, bumps `version` and writes the audit row with the judge and time.
 * Returns the new board row for pushing after commit.
 * @throws HttpError 404 when the team does not exist.
 */
export async function toggleTeamStatus(
  em: EntityManager,
  teamId: number,
  userId: number,
): Promise<BoardTeam> {
  return transaction(em, async (tem) => {
    const rows = await tem.execute<Array<{ status_team_id: number }>>(
      'select status_team_id from teams where id = ? for update',
      [teamId],
    );
    const row = rows[0];
    if (!row) throw new HttpError(404, 'No se encontró el equipo.');
    const from = Number(row.status_team_id);
    const to = from === TEAM_STATUS.active ? TEAM_STATUS.disqualified : TEAM_STATUS.active;
    const now = new Date();
    await tem.execute(
      'update teams set status_team_id = ?, version = version + 1, updated_at = ? where id = ?',
      [to, now, teamId],
    );
    await tem.execute(
      'insert into team_status_changes (teams_id, `from`, `to`, users_id, `at`, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)',
      [teamId, from, to, userId, now, now, now],
    );
    return (await boardTeam(tem, teamId))!;
  });
}
