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
 * (`sqlTransaction`) and in the load tester's mysql2 baseline (BENCHMARKS.md, issue 26).
 */
export type SqlRunner = <T = Record<string, unknown>>(
  sql: string,
  params?: readonly unknown[],
) => Promise<T[]>;

/** A runner on `em`: in `em`'s transaction when it has one. */
export function ormSql(em: EntityManager): SqlRunner {
  return (sql, params = []) => em.execute(sql, [...params]);
}

/** A runner on one mysql2 connection (text protocol, values escaped by the driver). */
export function connectionSql(conn: mysql.PoolConnection | mysql.Connection): SqlRunner {
  return async <T>(sql: string, params: readonly unknown[] = []) =>
    (await conn.query(sql, params as unknown[]))[0] as T[];
}

/**
 * Settings shared with the ORM's pool (orm-options.ts): UTC, utf8mb4 with `utf8mb4_unicode_ci`,
 * dates read as strings as MikroORM reads them, the connect limit of timeouts.ts.
 */
export function mysqlOptions(databaseUrl: string): mysql.PoolOptions {
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
 * A bare mysql2 pool of at most `connections` connections, for the one path that does not go through
 * the ORM: the attempts group commit (attempt-writer.ts; BENCHMARKS.md "Issue 26" measured MikroORM and
 * knex at a quarter of the server's core on it). Every connection gets the ORM pool's limits
 * (`limitConnection`: the session's lock wait and a time limit per query) and READ COMMITTED (why:
 * attempt-writer.ts). Close it with `end()`.
 */
export function createSqlPool(databaseUrl: string, connections: number): mysql.Pool {
  const pool = mysql.createPool({
    ...mysqlOptions(databaseUrl),
    connectionLimit: connections,
    maxIdle: connections,
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
export class AcquireTimeoutError extends Error {
  readonly code = 'DB_ACQUIRE_TIMEOUT';
  constructor() {
    super(`Timeout acquiring a connection (${DB_ACQUIRE_TIMEOUT_MS} ms)`);
  }
}

/**
 * A connection of `pool` within `DB_ACQUIRE_TIMEOUT_MS` (mysql2's pool has no such limit: a stalled
 * database would queue every request forever, issue 10). One that comes after the limit goes back.
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
 * Runs `work` in one transaction on a connection of `pool` (`createSqlPool`) and commits; rolls back on
 * any error. A deadlock or lock wait timeout runs it again from the start (`retryTransaction`, the
 * rule of every transaction of the server). `work` must only touch the database: it may run more than
 * once. A connection whose rollback fails is destroyed, never reused.
 * @throws the database's error (`isDatabaseUnavailable` tells the 503 kind), `AcquireTimeoutError`.
 */
export function sqlTransaction<T>(pool: mysql.Pool, work: (sql: SqlRunner) => Promise<T>): Promise<T> {
  return retryTransaction(async () => {
    const conn = await acquire(pool);
    let healthy = true;
    try {
      await conn.query({ sql: 'START TRANSACTION', timeout: DB_QUERY_TIMEOUT_MS });
      const result = await work(connectionSql(conn));
      await conn.query({ sql: 'COMMIT', timeout: DB_QUERY_TIMEOUT_MS });
      return result;
    } catch (err) {
      // A connection that timed out or broke is dropped, not asked to roll back (that would wait for
      // a stalled database a second time, past the agent's patience): the server rolls back the
      // transaction of a connection that goes away.
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
