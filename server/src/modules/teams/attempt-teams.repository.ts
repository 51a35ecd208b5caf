import { placeholders, type SqlStatement } from '../../db/sql.js';

/*
 * The first statement of the attempts group commit (agent module, attempt-writer.ts): the group's team
 * rows locked, with what the group needs of their contests. SQL text on the agents' bare pool: the
 * measured hot path, BENCHMARKS.md "Group commit of attempts". It reads `contests` in a subquery of
 * this one statement (db/README.md: the one read of another module's table, kept so the group stays
 * two round trips).
 */

/** A locked team's contest, that contest's automatic block threshold (null: none) and whether it is the active one. */
export interface TeamContest {
  contestId: number;
  maxAttempts: number | null;
  active: boolean;
  /** Its `number_attempts`: the attempt rows it has stored (docs/design.md section 3). */
  attempts: number;
}

/**
 * The statement that locks the rows of `teamIds` in id order (so concurrent groups, toggles and
 * heartbeats queue instead of deadlocking) and reads each existing team's contest id, `max_attempts`
 * `active` and its `number_attempts` (`readTeamContests`); deleted teams are missing. The contest is read by a subquery, which `for update` does not lock: groups of one
 * contest's teams must not queue behind each other on the contest's row. That subquery is a plain
 * (consistent) read, so run this under READ COMMITTED (attempt-writer.ts says why).
 */
export function lockTeamContestsStatement(teamIds: readonly number[]): SqlStatement {
  return {
    sql: `select id, contests_id, number_attempts, (select max_attempts from contests where contests.id = teams.contests_id) as max_attempts,
      (select active_key from contests where contests.id = teams.contests_id) as active
      from teams where id in (${placeholders(teamIds.length)}) order by id for update`,
    params: [...teamIds],
  };
}

/** The rows of `lockTeamContestsStatement`, by team id. */
export function readTeamContests(rows: readonly unknown[]): Map<number, TeamContest> {
  return new Map(
    (
      rows as Array<{
        id: number;
        contests_id: number;
        number_attempts: number;
        max_attempts: number | null;
        active: number | null;
      }>
    ).map((row) => [
      row.id,
      {
        contestId: row.contests_id,
        maxAttempts: row.max_attempts === null ? null : Number(row.max_attempts),
        active: Number(row.active) === 1,
        attempts: Number(row.number_attempts),
      },
    ]),
  );
}
