/**
 * The durable-write baseline, equal work: the SAME grouped SQL the product runs for
 * `POST /api/agent/attempts`, from a bare mysql2 loop, on a copy of the run's own database.
 *
 * The group is the product's own, imported (not a hand-kept copy): attempt-group.ts
 * `writeAttemptGroup` (its statements from agent/attempts.repository.ts, teams/attempt-teams.repository.ts, team-row-writer.ts and
 * board-rows.repository.ts, in its two round trips) through the product's `sqlBatchTransaction` on a
 * `createSqlPool` pool (db/sql.ts: READ COMMITTED, the same limits). What this file keeps of its own is
 * the queue of attempt-writer.ts around it, without HTTP, authentication, validation or the push:
 * - `concurrency` requests in flight (the run's `--concurrency`), each a batch of `batchMin`..`batchMax`
 *   attempts with unique event ids for a team with no other request in flight (one per agent, as the
 *   real agent), sent again as soon as it is answered: the same attempt stream, as fast as it goes;
 * - a writer queues them and, while fewer than `ATTEMPT_GROUPS_AT_ONCE` groups are being written,
 *   takes everything queued (up to `MAX_GROUP_ATTEMPTS` attempts) as one group = one transaction: lock
 *   the group's teams in id order, look up the stored (team, event id) pairs, insert the new attempts
 *   in one INSERT, add them to the counters and bump `version` in one CASE UPDATE, read the changed
 *   board rows, commit; only then is each request of the group answered (durable).
 * The copy (`cloneDatabase`, made before the servers stop) has the run database's exact tables
 * (SHOW CREATE TABLE: columns, indexes, foreign keys) and rows, except `attempts`, which starts empty
 * as the run's did. It runs in a child process pinned like the servers (`runMysqlBaselineProcess`).
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import { databaseName, dropDatabase, serverPart } from '@concurso/testkit/environment';
import {
  ATTEMPT_GROUPS_AT_ONCE,
  MAX_GROUP_ATTEMPTS,
  createSqlPool,
  placeholders,
  sqlBatchTransaction,
  writeAttemptGroup,
  type GroupedBatch,
} from '@concurso/testkit/server-plugins';
import { pinProcess } from './pinning.js';

/** Baseline settings. */
export interface MysqlBaselineOptions {
  /** The scratch copy of the run's database (`cloneDatabase`). */
  databaseUrl: string;
  /** The run's teams (their ids exist in the copy). */
  teamIds: number[];
  batchMin: number;
  batchMax: number;
  /** Requests in flight. */
  concurrency: number;
  durationS: number;
}

/** Baseline figures. */
export interface MysqlBaselineResult {
  attempts_per_s: number;
  /** Groups (transactions) committed per second. */
  transactions_per_s: number;
  /** Mean attempts per group. */
  attempts_per_group: number;
  attempts: number;
  /** Rows inserted = the counters' growth = the attempts answered. */
  consistent: boolean;
  /** Requests in flight: `concurrency`, at most one per team. */
  concurrency: number;
}

/**
 * Copies the database at `sourceUrl` to a new scratch database on the same server (dropped with
 * `dropDatabase`): every table as SHOW CREATE TABLE gives it, and every row except `attempts`'.
 * Answers the copy's URL.
 */
export async function cloneDatabase(sourceUrl: string): Promise<string> {
  const source = databaseName(sourceUrl);
  const target = `concurso_bench_base_${randomBytes(5).toString('hex')}`;
  const conn = await mysql.createConnection({ uri: serverPart(sourceUrl), multipleStatements: false });
  try {
    await conn.query(`create database \`${target}\` character set utf8mb4 collate utf8mb4_unicode_ci`);
    await conn.query('set foreign_key_checks = 0');
    const [tables] = await conn.query<mysql.RowDataPacket[]>(
      `select table_name as name from information_schema.tables where table_schema = ? and table_type = 'BASE TABLE'`,
      [source],
    );
    await conn.query(`use \`${target}\``);
    for (const { name } of tables as Array<{ name: string }>) {
      const [[created]] = await conn.query<mysql.RowDataPacket[]>(
        `show create table \`${source}\`.\`${name}\``,
      );
      await conn.query(String(created!['Create Table']));
      if (name !== 'attempts')
        await conn.query(`insert into \`${target}\`.\`${name}\` select * from \`${source}\`.\`${name}\``);
    }
    return `${serverPart(sourceUrl)}${target}`;
  } catch (err) {
    await conn.query(`drop database if exists \`${target}\``).catch(() => undefined);
    throw err;
  } finally {
    await conn.end();
  }
}

const PROCESS_NAMES = ['chrome.exe', 'Discord.exe', 'AnyDesk.exe', 'firefox.exe', 'Telegram.exe'];

/** One request waiting for its group's commit. */
interface Pending extends GroupedBatch {
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Runs the baseline in this process. */
async function runMysqlBaseline(o: MysqlBaselineOptions): Promise<MysqlBaselineResult> {
  const pool = createSqlPool(o.databaseUrl, ATTEMPT_GROUPS_AT_ONCE + 1);
  try {
    const [[before]] = await pool.query<mysql.RowDataPacket[]>(
      `select coalesce(sum(number_attempts), 0) as total from teams where id in (${placeholders(o.teamIds.length)})`,
      o.teamIds,
    );
    const prefix = randomBytes(3).toString('hex');
    let seq = 0;
    let attempts = 0;
    let groups = 0;
    let failure: unknown = null;
    const queue: Pending[] = [];
    let writing = 0;
    const deadline = performance.now() + o.durationS * 1000;
    const started = performance.now();

    // The product's own group: attempt-group.ts `writeAttemptGroup` in its transaction (the bench's
    // contest has no max_attempts, so the product blocks nothing and neither does this).
    const writeGroup = async (group: Pending[]) => {
      try {
        const { outcome } = await sqlBatchTransaction(pool, (send) => writeAttemptGroup(send, group));
        for (const b of group) {
          const result = outcome.get(b);
          if (!result || result instanceof Error) throw result ?? new Error('no outcome');
          attempts += result.counted;
        }
        groups++;
        for (const b of group) b.resolve();
      } catch (err) {
        for (const b of group) b.reject(err);
      }
    };

    // attempt-writer.ts `pump` and `takeGroup`.
    const pump = () => {
      while (writing < ATTEMPT_GROUPS_AT_ONCE && queue.length > 0) {
        const group: Pending[] = [];
        let size = 0;
        while (queue.length > 0) {
          const next = queue[0]!;
          if (group.length > 0 && size + next.attempts.length > MAX_GROUP_ATTEMPTS) break;
          group.push(queue.shift()!);
          size += next.attempts.length;
        }
        writing++;
        void writeGroup(group).finally(() => {
          writing--;
          pump();
        });
      }
    };

    const busy = new Set<number>();
    let nextTeam = 0;
    const lane = async () => {
      while (performance.now() < deadline && !failure) {
        let teamId = -1;
        for (let step = 0; step < o.teamIds.length && teamId < 0; step++) {
          const candidate = o.teamIds[(nextTeam + step) % o.teamIds.length]!;
          if (!busy.has(candidate)) {
            teamId = candidate;
            nextTeam = (nextTeam + step + 1) % o.teamIds.length;
          }
        }
        if (teamId < 0) {
          await new Promise((r) => setImmediate(r));
          continue;
        }
        busy.add(teamId);
        const size = o.batchMin + Math.floor(Math.random() * (o.batchMax - o.batchMin + 1));
        const occurred_at = new Date().toISOString();
        const batch = Array.from({ length: size }, () => ({
          event_id: `${prefix}-${seq}`,
          process: PROCESS_NAMES[seq++ % PROCESS_NAMES.length]!,
          occurred_at,
        }));
        try {
          await new Promise<void>((resolve, reject) => {
            queue.push({ teamId, attempts: batch, resolve, reject });
            pump();
          });
        } catch (err) {
          failure = err;
        } finally {
          busy.delete(teamId);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(o.concurrency, o.teamIds.length) }, lane));
    if (failure) throw failure;
    const seconds = (performance.now() - started) / 1000;
    const [[after]] = await pool.query<mysql.RowDataPacket[]>(
      `select (select count(*) from attempts where event_id like ?) as n, (select coalesce(sum(number_attempts), 0) from teams where id in (${placeholders(o.teamIds.length)})) as total`,
      [`${prefix}-%`, ...o.teamIds],
    );
    return {
      attempts_per_s: attempts / seconds,
      transactions_per_s: groups / seconds,
      attempts_per_group: groups ? attempts / groups : 0,
      attempts,
      consistent: Number(after!.n) === attempts && Number(after!.total) - Number(before!.total) === attempts,
      concurrency: Math.min(o.concurrency, o.teamIds.length),
    };
  } finally {
    await pool.end();
  }
}

const SELF = fileURLToPath(import.meta.url);

/**
 * Runs the baseline in a child process pinned to `pinCpus` (the servers' CPUs), so the loop competes
 * for the machine as the server did; drops the scratch database afterwards whatever happens.
 */
export async function runMysqlBaselineProcess(
  o: MysqlBaselineOptions,
  pinCpus: string | null,
): Promise<MysqlBaselineResult> {
  const child = fork(SELF, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    if (pinCpus) pinProcess(child.pid!, pinCpus);
    return await new Promise<MysqlBaselineResult>((resolve, reject) => {
      child.once('message', (m: { result?: MysqlBaselineResult; error?: string }) =>
        m.result ? resolve(m.result) : reject(new Error(`mysql2 baseline: ${m.error}`)),
      );
      child.once('exit', (code) => reject(new Error(`mysql2 baseline exited (${code})`)));
      child.send(o);
    });
  } finally {
    if (child.exitCode === null) child.kill();
    await dropDatabase(o.databaseUrl).catch(() => undefined);
  }
}

// As a child process: one run, answered over IPC.
if (process.send && process.argv[1] && path.resolve(process.argv[1]) === SELF) {
  // The main process is gone (Ctrl-C, crash): stop writing.
  process.on('disconnect', () => process.exit(0));
  process.once('message', (o: MysqlBaselineOptions) => {
    runMysqlBaseline(o)
      .then((result) => process.send!({ result }))
      .catch((err: unknown) => process.send!({ error: err instanceof Error ? err.message : String(err) }))
      .finally(() => setTimeout(() => process.exit(0), 100));
  });
}
