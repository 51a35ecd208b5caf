import type { EntityManager } from '@mikro-orm/mysql';
import type { AgentAttempt, AgentAttemptsResult, BoardTeam } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';
import { isDatabaseUnavailable } from '../../db/timeouts.js';
import { FingerprintLearner } from './fingerprint-learner.js';
import type { FingerprintClaim } from '../fingerprints/index.js';
import type { GroupedBatch, GroupWritten } from './attempt-group.js';

/** One `POST /api/agent/attempts` waiting for its group's commit. */
interface PendingBatch extends GroupedBatch {
  resolve: (result: AgentAttemptsResult) => void;
  reject: (err: unknown) => void;
}

/**
 * Most (team, event id) pairs one group looks up at once. MariaDB turns an `IN` list of 1,000 values
 * or more into a derived table and then reads the unique index by `teams_id` alone, i.e. every attempt
 * of the team; below it the lookup is one range probe per pair.
 */
export const MAX_GROUP_ATTEMPTS = 900;

/** Groups written at once: one commits while the next one is built. */
export const ATTEMPT_GROUPS_AT_ONCE = 2;

/**
 * Connections of the main thread's bare pool (`app.sql`, plugins/orm.ts): the key lookups and the
 * heartbeats. The groups are written on the attempts' worker thread's own pool
 * (attempt-thread.ts, `ATTEMPT_GROUPS_AT_ONCE` connections), so the process holds as many as before.
 */
export const AGENT_SQL_CONNECTIONS = 2;

/**
 * Writes one group (plain data: the requests' teams and attempts) in one transaction and answers what
 * it committed (`GroupWritten`); rejects with the database's error when nothing of it was stored. The
 * app's is `AttemptThread.commit` (the attempts' worker thread, attempt-thread.ts).
 */
export type GroupCommit = (group: GroupedBatch[]) => Promise<GroupWritten>;

/**
 * Group commit of agents' attempt batches (docs/design.md section 6; BENCHMARKS.md "Capacity of the attempts
 * path"); its statements are in attempt-group.ts, attempts.repository.ts and the teams module's index.ts.
 *
 * Every POST is queued; while fewer than `maxConcurrent` groups are being written, everything queued
 * (up to `MAX_GROUP_ATTEMPTS` attempts) becomes one transaction: lock the groups' team rows in id
 * order (so concurrent groups, toggles and heartbeats queue instead of deadlocking), look up which
 * `event_id`s each team already has, insert the new ones, add exactly that many to each team's
 * `number_attempts` and bump `version` in one `UPDATE`, block the teams that reached their contest's
 * `max_attempts` (`blockAtThreshold`), read the changed board rows, commit. Only then
 * is each request answered and `onCommitted` called with the rows to push, so an answer always means
 * the attempts are durable. An idle server writes each request at once; a busy one writes them in
 * ever larger groups, which amortises round trips, commits and fsyncs (2 round trips per group
 * instead of 7 per request).
 *
 * The queue, the groups, the answers and the push stay on the main thread; only the group's
 * statements run elsewhere (`commit`: in the app, the attempts' worker thread, attempt-thread.ts), so
 * a group's round trips never wait behind the push's writes on the event loop and a flush of the push
 * never waits behind a group.
 *
 * The one place where "one data path" gives way: the groups run on a bare mysql2 pool (db/sql.ts), not
 * through MikroORM and knex, which took a quarter of the server's core on this path alone
 * (bench/BENCHMARKS.md "The attempts group commit on a bare mysql2 pool"); the statements are still the
 * repositories' (`lockTeamContestsStatement`, `storedAttemptsStatement`, `storeAttemptsStatement`,
 * `addAttemptCountsStatement`, `boardRowsStatement`, and `changeTeamStatus` on a `SqlRunner`), with the ORM
 * pool's time limits, retry and 503 mapping.
 */
export class AttemptWriter {
  private queue: PendingBatch[] = [];
  private inFlight = 0;
  private readonly idle = new Set<() => void>();

  /**
   * @param commit writes one group (`GroupCommit`; the app's: `AttemptThread.commit`, on a pool of at
   *   least `maxConcurrent` connections).
   * @param fork a fresh entity manager (`orm.em.fork()`), for the fingerprints' learner.
   * @param onCommitted receives the board rows whose count moved, after the commit.
   * @param maxConcurrent groups written at once (2: one commits while the next one is built).
   * @param learner learns the attempts' fingerprints after each commit.
   */
  constructor(
    private readonly commit: GroupCommit,
    fork: () => EntityManager,
    private readonly onCommitted: (rows: BoardTeam[]) => void,
    private readonly maxConcurrent = ATTEMPT_GROUPS_AT_ONCE,
    private readonly learner = new FingerprintLearner(fork),
  ) {}

  /**
   * Stores `attempts` for `teamId`, idempotent by `event_id` per team. Resolves, after the commit,
   * with the event ids accepted, how many of them were new (`counted`) and the team's total.
   * @throws HttpError 429 `MESSAGES.agentAttemptsCapReached` (with `Retry-After`) when the team has
   *   `AGENT_CHANNEL_LIMITS.attemptRowsPerTeam` rows (what fitted before the cap is stored); 401 when
   *   the team no longer exists (deleted while its key was cached); 409
   *   `MESSAGES.agentContestInactive` when the team's contest is not the active one (never
   *   counted into an old or a future contest; nothing stored); the database's error when the
   *   group's transaction failed (a deadlock or lock timeout after `TRANSACTION_TRIES` runs of
   *   db/transaction.ts, any other error at once; nothing of it was stored).
   */
  record(teamId: number, attempts: AgentAttempt[]): Promise<AgentAttemptsResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ teamId, attempts, resolve, reject });
      this.pump();
    });
  }

  /** Resolves once nothing is queued or being written (the server is closing). */
  drained(): Promise<void> {
    if (this.inFlight === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  private pump(): void {
    while (this.inFlight < this.maxConcurrent && this.queue.length > 0) {
      const group = this.takeGroup();
      this.inFlight++;
      void this.writeGroup(group).finally(() => {
        this.inFlight--;
        this.pump();
        if (this.inFlight === 0 && this.queue.length === 0) {
          for (const resolve of this.idle) resolve();
          this.idle.clear();
        }
      });
    }
  }

  private takeGroup(): PendingBatch[] {
    const group: PendingBatch[] = [];
    let size = 0;
    while (this.queue.length > 0) {
      const next = this.queue[0]!;
      if (group.length > 0 && size + next.attempts.length > MAX_GROUP_ATTEMPTS) break;
      group.push(this.queue.shift()!);
      size += next.attempts.length;
    }
    return group;
  }

  private async writeGroup(group: PendingBatch[]): Promise<void> {
    let outcomes: GroupWritten['outcomes'];
    let changed: BoardTeam[];
    let claims: FingerprintClaim[];
    try {
      // A deadlock or lock wait timeout runs the group again where it is written (`commitAttemptGroup`,
      // db/transaction.ts); what comes back here is its last error. Only the requests' data crosses:
      // their answers stay in this queue.
      ({ outcomes, changed, claims } = await this.commit(
        group.map(({ teamId, attempts }) => ({ teamId, attempts })),
      ));
    } catch (err) {
      for (const batch of group) batch.reject(err);
      // The database is down or stalled: what queued meanwhile would wait for its own timeout after
      // this one, past the agent's patience. It is answered 503 now and resent by the agent.
      if (isDatabaseUnavailable(err)) for (const batch of this.queue.splice(0)) batch.reject(err);
      return;
    }
    if (changed.length > 0) this.onCommitted(changed);
    // The fingerprints, after the commit and off its locks (fingerprint-learner.ts says
    // why); before the answers, so an agent's next config already carries what its attempt taught.
    // Only what this group counted (a replayed event id teaches nothing), of the active contest
    // (docs/design.md section 6a "Fingerprints").
    await this.learner.learn(claims);
    for (const [i, batch] of group.entries()) {
      const result = outcomes[i]!;
      if ('refused' in result) {
        const { status, message, retryAfterS } = result.refused;
        batch.reject(new HttpError(status, message, undefined, retryAfterS));
      } else batch.resolve(result);
    }
  }
}
