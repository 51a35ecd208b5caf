import type { EntityManager } from '@mikro-orm/mysql';
import { agentAlertOf, isAgentAlarm, isRecentNewProgram, type BoardTeam } from '@concurso/shared';
import {
  dbDate,
  ormSql,
  placeholders,
  runStatement,
  type SqlRunner,
  type SqlStatement,
} from '../../db/sql.js';

/*
 * The board rows of `teams` (docs/design.md section 6; what changes a row is team-row-writer.ts), read
 * here because the teams module owns its table; the board module, the agents' attempts and the other
 * writers read them through teams' index.ts. One reader, `boardRows`, of one statement,
 * `boardRowsStatement`: the ORM's connection where it is no hot path, the attempts' bare pool in the
 * group commit (db/README.md: one SQL text, two runners).
 */

/** A board row as the statement answers it (columns, the status name; MariaDB's tinyint as a number). */
interface BoardRowData {
  id: number;
  name: string;
  levels_id: number;
  number_attempts: number;
  status_team_id: number;
  status: string;
  agent_online: number | boolean;
  agent_alert: string | null;
  version: number;
  new_program: string | null;
  new_program_at: Date | string | null;
}

/**
 * The statement of the board rows of the teams `where` selects (SQL on `t`, the teams, with `?`
 * placeholders for `params`); `readBoardRows` turns its rows into `BoardTeam`s.
 */
function boardRowsWhere(where: string, params: readonly unknown[], orderBy = ''): SqlStatement {
  return {
    sql: `select t.id, t.name, t.levels_id, t.number_attempts, t.status_team_id, s.status, t.agent_online,
      t.agent_alert, t.version, t.new_program, t.new_program_at from teams as t inner join status_team as s on t.status_team_id = s.id
      where ${where}${orderBy ? ` order by ${orderBy}` : ''}`,
    params,
  };
}

/**
 * The rows of a board rows statement as plain `BoardTeam` objects (what the snapshot lists and a
 * `board.frame` row encodes). Not entities: hydrating entities cost 5 to 10 times the query itself for
 * a few hundred teams, and this runs inside every attempts group (rows locked) and for every screen's
 * snapshot.
 */
export function readBoardRows(rows: readonly unknown[]): BoardTeam[] {
  const now = Date.now();
  return (rows as BoardRowData[]).map((row) => {
    const newProgram = newProgramOf(row, now);
    // Presence per machine (docs/design.md section 6a): one silent machine's «sin señal» shows even while
    // another machine of the team beats (a frame carries one agent state: the alarm wins), and so does
    // a machine's «detenido sin reanudar».
    const alert = agentAlertOf(row.agent_alert);
    const online = Number(row.agent_online) === 1 && !isAgentAlarm(alert);
    return {
      id: row.id,
      name: row.name,
      levels_id: row.levels_id,
      number_attempts: Number(row.number_attempts),
      status_team: { id: row.status_team_id, status: row.status },
      agent_online: online,
      agent_alert: online ? null : alert,
      version: Number(row.version),
      // Only when there is one: a row without it is what it was before the mark (and its frame tuple).
      ...(newProgram ? { new_program: newProgram } : {}),
    };
  });
}

/**
 * A row's «programa nuevo» mark (observed module) while recent (`isRecentNewProgram` at `now`), else
 * null. The bare pool answers dates as UTC text without a zone (`dateStrings`), the ORM as a `Date`.
 */
function newProgramOf(row: BoardRowData, now: number): BoardTeam['new_program'] {
  if (row.new_program === null || row.new_program_at === null) return null;
  const mark = { name: row.new_program, at: dbDate(row.new_program_at).getTime() };
  return isRecentNewProgram(mark, now) ? mark : null;
}

/** Which teams' board rows: these ids (missing ones left out, in no particular order), or a contest's teams by name then id. */
export type BoardRowsOf = readonly number[] | { contestId: number };

/**
 * The one statement of the board rows (`of`: team ids, not empty, or a contest), for every reader:
 * `boardRows` runs it, and the attempts group commit sends it in its batch on the bare pool
 * (`SqlBatch`) and reads the answer with `readBoardRows`.
 */
export function boardRowsStatement(of: BoardRowsOf): SqlStatement {
  return 'contestId' in of
    ? boardRowsWhere('t.contests_id = ?', [of.contestId], 't.name asc, t.id asc')
    : boardRowsWhere(`t.id in (${placeholders(of.length)})`, of);
}

/**
 * The board rows of `of` (`boardRowsStatement`): the board's snapshot (a contest), a row to push after
 * a toggle, an edit, a presence change or an import (`[teamId]`: none when it does not exist), the
 * automatic block's rows. `db`: the caller's ORM transaction (an EntityManager, run through `ormSql`,
 * so it sees what that transaction wrote) or the attempts' bare pool (a `SqlRunner`).
 */
export async function boardRows(db: EntityManager | SqlRunner, of: BoardRowsOf): Promise<BoardTeam[]> {
  if (Array.isArray(of) && of.length === 0) return [];
  const sql = typeof db === 'function' ? db : ormSql(db);
  return readBoardRows(await runStatement(sql, boardRowsStatement(of)));
}
