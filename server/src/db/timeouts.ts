/**
 * Time limits on everything the server asks the database (a frozen MariaDB must not hang
 * every request). A stalled server does not close its TCP connections, so without limits a query, a
 * new connection or a wait for a free pooled connection waits forever; with them each fails within a
 * few seconds, the error handler answers 503 with a Spanish message (plugins/errors.ts), and the pool
 * replaces the broken connections by itself once the database answers again.
 */

/** A new connection that has not shaken hands within this long fails (ms). */
export const DB_CONNECT_TIMEOUT_MS = 3_000;
/** A request that waits this long for a free pooled connection fails (ms). */
export const DB_ACQUIRE_TIMEOUT_MS = 4_000;
/**
 * A query with no answer for this long fails and its connection is destroyed (ms). Below the agent's
 * 10 s request timeout, so an agent hears 503 from a stalled database instead of giving up unanswered.
 */
export const DB_QUERY_TIMEOUT_MS = 6_000;
/**
 * InnoDB's row-lock wait on our connections (s), instead of the server default of 50 s: a lock held
 * that long is a stuck transaction, and the waiter is retried (`withRetry`) or answered 503 well
 * within the query timeout.
 */
const DB_LOCK_WAIT_TIMEOUT_S = 5;

/** The query limit in force; 0 (none) while migrations run: a schema change may take long. */
export const queryLimit = { ms: DB_QUERY_TIMEOUT_MS };

/** The parts of a mysql2 callback connection the pool hook touches. */
interface RawConnection {
  query: (
    options: unknown,
    values: unknown,
    callback?: (err: unknown, ...rest: unknown[]) => void,
  ) => unknown;
  destroy: () => void;
}

/**
 * Knex pool hook (`pool.afterCreate`) for every new mysql2 connection, and the same for the bare pool
 * of the attempts (sql.ts `createSqlPool`): sets the session's lock wait,
 * and gives each query mysql2's inactivity `timeout` (`queryLimit.ms`). When it fires, the connection
 * is destroyed: its protocol state is unknown (the answer may still come), and a destroyed connection
 * fails knex's validation, so the pool never hands it out again.
 */
export function limitConnection(conn: RawConnection, done: (err: unknown, conn: unknown) => void): void {
  const query = conn.query.bind(conn);
  conn.query = (options, values, callback) => {
    // knex passes an options object, the bare pool of the attempts (sql.ts) a string.
    const limited =
      queryLimit.ms <= 0
        ? options
        : typeof options === 'string'
          ? { sql: options, timeout: queryLimit.ms }
          : options && typeof options === 'object' && !('timeout' in options)
            ? { ...(options as object), timeout: queryLimit.ms }
            : options;
    const guarded =
      typeof callback === 'function'
        ? (err: unknown, ...rest: unknown[]) => {
            if ((err as { code?: string } | null)?.code === 'PROTOCOL_SEQUENCE_TIMEOUT') conn.destroy();
            callback(err, ...rest);
          }
        : callback;
    return query(limited, values, guarded);
  };
  query(
    {
      sql: `SET SESSION innodb_lock_wait_timeout = ${DB_LOCK_WAIT_TIMEOUT_S}`,
      timeout: DB_CONNECT_TIMEOUT_MS,
    },
    [],
    (err: unknown) => done(err, conn),
  );
}

/** Error codes of a database that is down, unreachable or not answering. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'DB_ACQUIRE_TIMEOUT', // sql.ts: no free connection of the attempts' pool in time
  'ATTEMPT_WORKER_EXITED', // the attempts' worker thread stopped under its groups (modules/agent/attempt-thread.ts)
]);

/**
 * Messages that mean "the database is not answering" when the error that carried them lost its name:
 * a COMMIT that timed out completes knex's transaction and MikroORM's rollback then throws the first
 * one; MikroORM wraps knex's pool timeout (`KnexTimeoutError`) in a plain `DriverException` that keeps
 * only its message.
 */
const UNAVAILABLE_MESSAGES = ['Transaction query already complete', 'Knex: Timeout acquiring a connection'];

/**
 * True when `err` (as thrown by MikroORM, knex or mysql2) means the database is not available right
 * now, as opposed to a bad query: the caller answers 503 and the client may try again.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; name?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    depth++
  ) {
    if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
    if (e.name === 'KnexTimeoutError' || e.name === 'ConnectionException') return true;
    if (typeof (e as { message?: unknown }).message === 'string') {
      const message = (e as { message: string }).message;
      if (UNAVAILABLE_MESSAGES.some((start) => message.startsWith(start))) return true;
    }
    e = e.cause as typeof e;
  }
  return false;
}
