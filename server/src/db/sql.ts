import type { EntityManager } from '@mikro-orm/mysql';
import mysql from 'mysql2/promise';
import {
  DB_ACQUIRE_TIMEOUT_MS,
  DB_CONNECT_TIMEOUT_MS,
  DB_QUERY_TIMEOUT_MS,
  isDatabaseUnavailable,
  limitConnection,
} from './timeouts.js';
import { retryTransaction } from './transaction.js';

/**
 * Runs one SQL statement with `?` placeholders in the caller's transaction and answers its rows (a
 * SELECT) or the driver's result (anything else). The statements of the attempts hot path take one,
 * so the same text runs on an ORM transaction (`ormSql`), on the bare pool of the group commit
 * (`sqlBatchTransaction`, a statement at a time through `batchRunner`) and in the load tester's mysql2
 * baseline (BENCHMARKS.md).
 */
export type SqlRunner = <T = Record<string, unknown>>(
  sql: string,
  params?: readonly unknown[],
) => Promise<T[]>;

/** One SQL statement with `?` placeholders and their values, to run later (`SqlBatch`, `runStatement`). */
export interface SqlStatement {
  sql: string;
  params: readonly unknown[];
}

/** `?, ?, …`: `n` placeholders for an IN list or a VALUES row. */
export const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/** Runs `statement` on `sql` and answers its rows (a SELECT) or the driver's result. */
export function runStatement<T = Record<string, unknown>>(
  sql: SqlRunner,
  statement: SqlStatement,
): Promise<T[]> {
  return sql<T>(statement.sql, statement.params);
}

/**
 * Several statements of one transaction in one round trip (one multi-statement query), answering each
 * statement's rows or result in order; `commit: true` ends the transaction with them
 * (`sqlBatchTransaction`).
 */
export type SqlBatch = (
  statements: readonly SqlStatement[],
  options?: { commit?: boolean },
) => Promise<unknown[][]>;

/** A `SqlRunner` that sends each statement as a batch of its own (for rare statements of a batched transaction). */
export function batchRunner(batch: SqlBatch): SqlRunner {
  return async <T>(sql: string, params: readonly unknown[] = []) =>
    (await batch([{ sql, params }]))[0] as T[];
}

/** A runner on `em`: in `em`'s transaction when it has one. */
export function ormSql(em: EntityManager): SqlRunner {
  return (sql, params = []) => em.execute(sql, [...params]);
}

/**
 * A date as a connection answers it: a `Date`, or UTC text without a zone (`dateStrings` below:
 * '2026-11-27 09:00:00'), which `new Date` alone would read in the server's own zone.
 */
export function dbDate(value: Date | string): Date {
  if (value instanceof Date) return value;
  return new Date(/[zZ]$|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
}

/** A date as a DATETIME literal in UTC ('2026-11-27 09:00:00'), as the columns store them. */
export const sqlDateTime = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

/**
 * Settings shared with the ORM's pool (orm-options.ts): UTC, utf8mb4 with `utf8mb4_unicode_ci`,
 * dates read as strings as MikroORM reads them, the connect limit of timeouts.ts.
 */
function mysqlOptions(databaseUrl: string): mysql.PoolOptions {
  return {
    uri: databaseUrl,
    charset: 'UTF8MB4_UNICODE_CI',
    timezone: 'Z',
    dateStrings: true,
    supportBigNumbers: true,
    connectTimeout: DB_CONNECT_TIMEOUT_MS,
  };
}

/**
 * A bare mysql2 pool of at most `connections` connections, multi-statement, for the agents' hot paths, which
 * do not go through the ORM: the attempts group commit (attempt-writer.ts; bench/BENCHMARKS.md "The attempts
 * group commit on a bare mysql2 pool" measured MikroORM and knex at a quarter of the server's core on it),
 * the key lookup and the heartbeat. Every connection gets the ORM pool's limits (`limitConnection`: the
 * session's lock wait and a time limit per query) and READ COMMITTED (why: attempt-writer.ts). Close it with
 * `end()`.
 */
export function createSqlPool(databaseUrl: string, connections: number): mysql.Pool {
  const pool = mysql.createPool({
    ...mysqlOptions(databaseUrl),
    connectionLimit: connections,
    maxIdle: connections,
    // `SqlBatch`: a group's statements in two round trips. Every value goes through a placeholder,
    // escaped by the driver; no statement text is ever built from input.
    multipleStatements: true,
  });
  pool.on('connection', (conn) => {
    const raw = conn as unknown as Parameters<typeof limitConnection>[0];
    // Queued on the connection before anything its first user sends.
    limitConnection(raw, () => undefined);
    raw.query(
      { sql: 'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED', timeout: DB_CONNECT_TIMEOUT_MS },
      [],
    );
  });
  return pool;
}

/** The error of a wait for a free connection of `createSqlPool` longer than `DB_ACQUIRE_TIMEOUT_MS`. */
class AcquireTimeoutError extends Error {
  readonly code = 'DB_ACQUIRE_TIMEOUT';
  constructor() {
    super(`Timeout acquiring a connection (${DB_ACQUIRE_TIMEOUT_MS} ms)`);
  }
}

/**
 * A connection of `pool` within `DB_ACQUIRE_TIMEOUT_MS` (mysql2's pool has no such limit: a stalled
 * database would queue every request forever). One that comes after the limit goes back.
 * @throws AcquireTimeoutError, or the driver's connect error.
 */
async function acquire(pool: mysql.Pool): Promise<mysql.PoolConnection> {
  const pending = pool.getConnection();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AcquireTimeoutError()), DB_ACQUIRE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([pending, expired]);
  } catch (err) {
    pending.then((late) => late.release()).catch(() => undefined);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sends `statements` on `conn` as one multi-statement query (one round trip, the query time limit) and
 * answers each statement's rows or result in order.
 */
async function roundTrip(
  conn: mysql.PoolConnection,
  statements: readonly SqlStatement[],
): Promise<unknown[][]> {
  const [results] = await conn.query({
    sql: statements.map((statement) => statement.sql).join(';\n'),
    values: statements.flatMap((statement) => statement.params),
    timeout: DB_QUERY_TIMEOUT_MS,
  });
  // mysql2 answers a one-statement query's result bare, several statements' as a list.
  return (statements.length === 1 ? [results] : results) as unknown[][];
}

/**
 * Runs `statements` on one connection of `pool` (`createSqlPool`) in one round trip, each on its own
 * (autocommit, no transaction), and answers each one's rows or result in order. For the agents' hot
 * paths outside the group commit: the key lookup and the heartbeat (no ORM, no request
 * context there). A connection that timed out or broke is dropped, not reused.
 * @throws the database's error (`isDatabaseUnavailable` tells the 503 kind), `AcquireTimeoutError`.
 */
export async function sqlStatements(
  pool: mysql.Pool,
  statements: readonly SqlStatement[],
): Promise<unknown[][]> {
  const conn = await acquire(pool);
  let healthy = true;
  try {
    return await roundTrip(conn, statements);
  } catch (err) {
    if (isDatabaseUnavailable(err)) healthy = false;
    throw err;
  } finally {
    if (healthy) conn.release();
    else conn.destroy();
  }
}

/** A `SqlRunner` on `pool`: each statement on its own, outside any transaction (`sqlStatements`). */
export function poolSql(pool: mysql.Pool): SqlRunner {
  return async <T>(sql: string, params: readonly unknown[] = []) =>
    (await sqlStatements(pool, [{ sql, params }]))[0] as T[];
}

const START_TRANSACTION: SqlStatement = { sql: 'START TRANSACTION', params: [] };
const COMMIT: SqlStatement = { sql: 'COMMIT', params: [] };

/**
 * Runs `work` in one transaction on a connection of `pool` (`createSqlPool`), in as few round trips as the
 * work's own: `work` sends its statements in batches (`SqlBatch`); the first batch starts the transaction and
 * the one sent with `commit: true` ends it (when none is, a COMMIT follows `work`). MariaDB stops a
 * multi-statement query at its first error, so a failed batch commits nothing; the transaction is rolled back
 * (or its broken connection dropped) and a deadlock or lock wait timeout runs `work` again from the start
 * (`retryTransaction`). bench/BENCHMARKS.md "The attempts group commit on a bare mysql2 pool": each round
 * trip of the attempts group waits behind the push's writes on the event loop.
 * @throws the database's error (`isDatabaseUnavailable` tells the 503 kind), `AcquireTimeoutError`.
 */
export function sqlBatchTransaction<T>(pool: mysql.Pool, work: (batch: SqlBatch) => Promise<T>): Promise<T> {
  return retryTransaction(async () => {
    const conn = await acquire(pool);
    let begun = false;
    let committed = false;
    let healthy = true;
    const batch: SqlBatch = async (statements, options = {}) => {
      if (committed) throw new Error('sqlBatchTransaction: the transaction is committed already');
      const lead = begun ? [] : [START_TRANSACTION];
      const all = [...lead, ...statements, ...(options.commit ? [COMMIT] : [])];
      begun = true;
      const each = await roundTrip(conn, all);
      if (options.commit) committed = true;
      return each.slice(lead.length, lead.length + statements.length);
    };
    try {
      const result = await work(batch);
      if (begun && !committed) await conn.query({ sql: 'COMMIT', timeout: DB_QUERY_TIMEOUT_MS });
      return result;
    } catch (err) {
      if (isDatabaseUnavailable(err)) healthy = false;
      else
        await conn.query({ sql: 'ROLLBACK', timeout: DB_QUERY_TIMEOUT_MS }).catch(() => {
          healthy = false;
        });
      throw err;
    } finally {
      if (healthy) conn.release();
      else conn.destroy();
    }
  });
}
