import type mysql from 'mysql2/promise';
import {
  AGENT_CHANNEL_LIMITS,
  MESSAGES,
  TEAM_STATUS,
  type AgentAttempt,
  type AgentAttemptsResult,
  type BoardTeam,
} from '@concurso/shared';
import {
  addAttemptCountsStatement,
  boardRows,
  boardRowsStatement,
  changeTeamStatus,
  lockTeamContestsStatement,
  readBoardRows,
  readTeamContests,
  type TeamContest,
} from '../teams/index.js';
import {
  activeChainHeadStatement,
  attemptChainStatements,
  autoincModeStatement,
  canonicalValue,
  consecutiveIds,
  lockChainHead,
  readChainHeads,
  type ChainedAttempt,
} from '../chain/index.js';
import {
  storeAttemptsStatement,
  storedAttemptsStatement,
  type NewAttempt,
  type StoredAttempt,
} from './attempts.repository.js';
import { HttpError } from '../../lib/http-error.js';
import {
  batchRunner,
  sqlBatchTransaction,
  type SqlBatch,
  type SqlRunner,
  type SqlStatement,
} from '../../db/sql.js';
import type { FingerprintClaim } from '../fingerprints/index.js';

/*
 * One group of the attempts group commit (attempt-writer.ts queues and groups the requests): its
 * statements, in two round trips on the bare mysql2 pool. It runs in the attempts' worker thread
 * (attempt-worker.ts, on the thread's own pool); the load tester's mysql2 baseline and bench:chain run
 * `writeAttemptGroup` itself.
 */

/** A batch the group refused, as it crosses the thread boundary: the `HttpError` to answer it with. */
interface RefusedBatch {
  refused: { status: number; message: string; retryAfterS?: number };
}

/**
 * What one committed group answers, plain data (it crosses from the worker thread in one message):
 * per batch of the group, in the group's order, its result or its refusal; the board rows whose count
 * moved; the fingerprint claims of what was counted.
 */
export interface GroupWritten {
  outcomes: Array<AgentAttemptsResult | RefusedBatch>;
  changed: BoardTeam[];
  claims: FingerprintClaim[];
}

/**
 * Writes `group` in one transaction on `pool` (`sqlBatchTransaction`: a deadlock or lock wait timeout
 * runs the group again, db/transaction.ts) and answers what it committed as plain data.
 * @throws the database's error when the transaction failed (nothing of it was stored).
 */
export async function commitAttemptGroup(
  pool: mysql.Pool,
  group: readonly GroupedBatch[],
): Promise<GroupWritten> {
  const { outcome, changed, claims } = await sqlBatchTransaction(pool, (send) =>
    writeAttemptGroup(send, group),
  );
  const outcomes = group.map((batch): AgentAttemptsResult | RefusedBatch => {
    const result = outcome.get(batch)!;
    return result instanceof HttpError
      ? {
          refused: {
            status: result.statusCode,
            message: result.message,
            ...(result.retryAfterS === undefined ? {} : { retryAfterS: result.retryAfterS }),
          },
        }
      : result;
  });
  return { outcomes, changed, claims };
}

/** One request of a group: its team and its attempts (`PendingBatch` without its answer). */
export interface GroupedBatch {
  teamId: number;
  attempts: AgentAttempt[];
}

/**
 * One group's work inside its transaction (`sqlBatchTransaction`), in two round trips on the bare pool
 * (`send`): the locks and the lookup, then the writes, the rows and the commit; a contest with an
 * automatic block reads the rows before it commits (`blockAtThreshold`). Each round trip waits behind
 * whatever the event loop is doing (the push's writes above all): bench/BENCHMARKS.md "The attempts
 * group commit on a bare mysql2 pool". Answers
 * each batch's outcome (its result, or the 409 / 401 to answer), the board rows whose count moved and
 * the fingerprint claims of what was counted. The load tester's mysql2 baseline runs this very function.
 */
export async function writeAttemptGroup<B extends GroupedBatch>(
  send: SqlBatch,
  group: readonly B[],
): Promise<{
  outcome: Map<B, AgentAttemptsResult | HttpError>;
  changed: BoardTeam[];
  claims: FingerprintClaim[];
}> {
  // READ COMMITTED (the pool's sessions): every read of the group sees what was committed when it
  // runs. Under REPEATABLE READ the contest subquery of `lockTeamContestsStatement` took the snapshot at the
  // group's first team row, before it waited for a later one; a group that held that row meanwhile
  // and stored one of the event ids was then invisible to the lookup, the INSERT met the unique key,
  // and the whole group was answered 409 (attempt-writer.test.ts). The team rows are locked first,
  // so no one else can add an event of these teams before the commit.
  const teamIds = [...new Set(group.map((b) => b.teamId))].sort((a, b) => a - b);
  // Which (team, event id) pairs are stored already (every asked pair; a team outside the active
  // contest then counts nothing).
  const asked = new Map<string, [number, string]>();
  for (const batch of group) {
    for (const a of batch.attempts) asked.set(pairKey(batch.teamId, a.event_id), [batch.teamId, a.event_id]);
  }
  // The active contest's chain head is locked after the team rows (modules/chain/README.md): the
  // group's attempts are chained in its second round trip, after whatever the head says.
  const [locked, storedRows, heads, autoinc] = await send([
    lockTeamContestsStatement(teamIds),
    storedAttemptsStatement([...asked.values()]),
    activeChainHeadStatement(),
    autoincModeStatement(),
  ]);
  const contestOf = readTeamContests(locked!);
  // A key of a team outside the active contest counts nothing (409 below; docs/design.md section 6a).
  const live = group.filter((b) => contestOf.get(b.teamId)?.active === true);
  const stored = new Set<string>();
  for (const r of storedRows as StoredAttempt[]) stored.add(pairKey(r.teams_id, r.event_id));

  // New rows, each pair once even if two queued requests carry it (an agent's retry).
  const fresh: NewAttempt[] = [];
  const claims: FingerprintClaim[] = [];
  const addedPerTeam = new Map<number, number>();
  const countedPerBatch = new Map<B, number>();
  // Batches that met their team's cap of rows: answered 429, the agent keeps them (`attemptRowsPerTeam`).
  const capped = new Set<B>();
  for (const batch of live) {
    let counted = 0;
    const team = contestOf.get(batch.teamId)!;
    const contestId = team.contestId;
    for (const a of batch.attempts) {
      const key = pairKey(batch.teamId, a.event_id);
      if (stored.has(key)) continue;
      if (
        team.attempts + (addedPerTeam.get(batch.teamId) ?? 0) + counted >=
        AGENT_CHANNEL_LIMITS.attemptRowsPerTeam
      ) {
        capped.add(batch);
        break;
      }
      stored.add(key);
      counted++;
      fresh.push({
        teamId: batch.teamId,
        contestId,
        process: a.process,
        executable: a.executable ?? null,
        via: a.via ?? null,
        killed: a.killed !== false,
        occurredAt: new Date(a.occurred_at),
        eventId: a.event_id,
      });
      if (a.sha256)
        claims.push({
          teamId: batch.teamId,
          contestId,
          process: a.process,
          sha256: a.sha256,
          match: a.match,
          tlsh: a.tlsh,
          buildId: a.build_id,
        });
    }
    countedPerBatch.set(batch, counted);
    if (counted > 0) addedPerTeam.set(batch.teamId, (addedPerTeam.get(batch.teamId) ?? 0) + counted);
  }
  const now = new Date();
  const liveIds = [...new Set(live.map((b) => b.teamId))];
  // A team that may reach its contest's max_attempts (the automatic block) is read before the commit.
  const mayBlock = [...addedPerTeam.keys()].some((id) => contestOf.get(id)?.maxAttempts != null);
  const writes: SqlStatement[] = [];
  if (fresh.length > 0) writes.push(storeAttemptsStatement(fresh, now));
  writes.push(...(await chainAttempts(send, readChainHeads(heads!), fresh, now, consecutiveIds(autoinc!))));
  if (addedPerTeam.size > 0) writes.push(addAttemptCountsStatement(addedPerTeam, now));
  // Totals for the answers (every live team) and rows to push (the teams whose count moved).
  if (liveIds.length > 0) writes.push(boardRowsStatement(liveIds));
  const results = writes.length > 0 ? await send(writes, { commit: !mayBlock }) : [];
  let rows = liveIds.length > 0 ? readBoardRows(results.at(-1)!) : [];
  if (mayBlock) {
    // A team blocked at its threshold is read again, with its new status.
    const sql = batchRunner(send);
    const blocked = await blockAtThreshold(sql, rows, addedPerTeam, contestOf);
    if (blocked.length > 0) {
      const again = new Map((await boardRows(sql, blocked)).map((row) => [row.id, row]));
      rows = rows.map((row) => again.get(row.id) ?? row);
    }
  }
  const rowOf = new Map(rows.map((r) => [r.id, r]));
  const outcome = new Map<B, AgentAttemptsResult | HttpError>();
  for (const batch of group) {
    const row = rowOf.get(batch.teamId);
    if (contestOf.has(batch.teamId) && contestOf.get(batch.teamId)?.active !== true) {
      outcome.set(batch, new HttpError(409, MESSAGES.agentContestInactive));
      continue;
    }
    if (capped.has(batch)) {
      // What fitted is stored (and idempotent when the agent sends the batch again).
      outcome.set(
        batch,
        new HttpError(
          429,
          MESSAGES.agentAttemptsCapReached,
          undefined,
          AGENT_CHANNEL_LIMITS.attemptsRetryAfterS,
        ),
      );
      continue;
    }
    outcome.set(
      batch,
      row
        ? {
            accepted: batch.attempts.map((a) => a.event_id),
            counted: countedPerBatch.get(batch) ?? 0,
            number_attempts: row.number_attempts,
          }
        : new HttpError(401, MESSAGES.agentKeyInvalid),
    );
  }
  return { outcome, changed: rows.filter((r) => addedPerTeam.has(r.id)), claims };
}

/**
 * The chain rows of a group's new attempts (`fresh`, stored at `now`), contest by contest, after the
 * heads the group locked (`heads`); a contest without a head there (its first chained row, or one made
 * active since the lock) has it made and locked now, one round trip more. The statements go right
 * after the attempts' INSERT: each chain row names its attempt as `LAST_INSERT_ID() + i` when the
 * INSERT's ids are `consecutive`, else by its team and event id (`attemptChainStatements`).
 */
async function chainAttempts(
  send: SqlBatch,
  heads: ReadonlyMap<number, { seq: number; hash: string }>,
  fresh: readonly NewAttempt[],
  now: Date,
  consecutive: boolean,
): Promise<SqlStatement[]> {
  const byContest = new Map<number, ChainedAttempt[]>();
  // Every attempt of the group was received at `now`: its canonical text once, not once per attempt.
  const receivedAt = canonicalValue(now);
  for (const [position, a] of fresh.entries()) {
    const list = byContest.get(a.contestId) ?? [];
    list.push({
      teamId: a.teamId,
      eventId: a.eventId,
      position,
      content: {
        contests_id: a.contestId,
        teams_id: a.teamId,
        event_id: a.eventId,
        process: a.process,
        executable: a.executable,
        via: a.via ?? null,
        killed: a.killed,
        occurred_at: a.occurredAt,
        received_at: receivedAt,
      },
    });
    byContest.set(a.contestId, list);
  }
  const statements: SqlStatement[] = [];
  for (const [contestId, attempts] of byContest) {
    const head = heads.get(contestId) ?? (await lockChainHead(batchRunner(send), contestId));
    statements.push(...attemptChainStatements(contestId, head, attempts, consecutive).statements);
  }
  return statements;
}

/**
 * The automatic block (docs/design.md section 3): in the attempts' own transaction, every active
 * team of `rows` (board rows read after the insert) that got new attempts in this group and now has at
 * least its contest's `max_attempts` is blocked and audited with no user. Only a new attempt triggers
 * it, so a team a judge unblocked stays unblocked until it makes another attempt beyond the threshold.
 * The team rows are locked already. Answers the ids blocked (usually none: no extra statement then).
 */
async function blockAtThreshold(
  sql: SqlRunner,
  rows: readonly BoardTeam[],
  addedPerTeam: ReadonlyMap<number, number>,
  contestOf: ReadonlyMap<number, TeamContest>,
): Promise<number[]> {
  const blocked: number[] = [];
  for (const row of rows) {
    const max = contestOf.get(row.id)?.maxAttempts;
    if (max == null || !addedPerTeam.has(row.id)) continue;
    if (row.status_team.id !== TEAM_STATUS.active || row.number_attempts < max) continue;
    await changeTeamStatus(
      sql,
      { id: row.id, status: row.status_team.id },
      TEAM_STATUS.disqualified,
      'automatic',
    );
    blocked.push(row.id);
  }
  return blocked;
}

const pairKey = (teamId: number, eventId: string): string => `${teamId}:${eventId.toLowerCase()}`;
