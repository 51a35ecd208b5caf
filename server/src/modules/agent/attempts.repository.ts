import type { SqlStatement } from '../../db/sql.js';

/*
 * The `attempts` table's statements of the attempts group commit (docs/design.md section 6). SQL text:
 * this is the measured hot path of the product, BENCHMARKS.md "Capacity of the attempts path" and "What
 * changed in the server", "Group commit of attempts" (a few round trips per group of requests, whatever
 * its size; one multi-row INSERT). attempt-writer.ts's `writeAttemptGroup` sends them, with the teams
 * module's (`lockTeamContestsStatement`, `addAttemptCountsStatement`, `boardRowsStatement`), in two
 * round trips on its bare mysql2 pool; the load tester's mysql2 baseline runs that same function.
 */

/** One attempt to insert (`attempts` row), its team's contest already known. */
export interface NewAttempt {
  teamId: number;
  contestId: number;
  process: string;
  /** The file name a renamed copy ran as, else null. */
  executable: string | null;
  /** What ran the program when a loader or an interpreter did (`python3`), else null or absent. */
  via?: string | null;
  killed: boolean;
  occurredAt: Date;
  eventId: string;
}

/** A (team id, event id) pair as stored. */
export interface StoredAttempt {
  teams_id: number;
  event_id: string;
}

/**
 * The statement of which (team id, event id) `pairs` (not empty) are stored already, as stored (the
 * column compares event ids without case); its rows are `StoredAttempt`s. Lock the teams first: then no
 * other transaction can add one before this commits.
 */
export function storedAttemptsStatement(pairs: ReadonlyArray<readonly [number, string]>): SqlStatement {
  return {
    sql: `select teams_id, event_id from attempts where (teams_id, event_id) in (${pairs.map(() => '(?, ?)').join(', ')})`,
    params: pairs.flat(),
  };
}

/**
 * The one INSERT of `attempts` (not empty) received at `now`. Their teams' counts are added by
 * `addAttemptCountsStatement` (teams/team-row-writer.ts), the one writer of what the boards show of a team.
 */
export function storeAttemptsStatement(attempts: readonly NewAttempt[], now: Date): SqlStatement {
  return {
    sql: `insert into attempts (teams_id, contests_id, process, executable, via, killed, occurred_at, received_at, event_id, created_at, updated_at) values ${attempts.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    params: attempts.flatMap((a) => [
      a.teamId,
      a.contestId,
      a.process,
      a.executable,
      a.via ?? null,
      a.killed ? 1 : 0,
      a.occurredAt,
      now,
      a.eventId,
      now,
      now,
    ]),
  };
}
