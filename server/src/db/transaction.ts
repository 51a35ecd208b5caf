import type { EntityManager } from '@mikro-orm/mysql';

/**
 * MySQL/MariaDB "Deadlock found" (1213), "Lock wait timeout exceeded" (1205), and "Failed to read
 * auto-increment value from storage engine" (1467): what InnoDB answers when the AUTO-INC lock of an
 * `INSERT … SELECT` is lost to a deadlock or a lock wait timeout (500 lab machines beating for the first
 * time together got it in the load tester's seeds).
 */
const RETRYABLE_ERRNOS: ReadonlySet<number> = new Set([1213, 1205, 1467]);

/** Tries of one transaction before its deadlock or lock timeout is answered (as 503). */
export const TRANSACTION_TRIES = 4;

/**
 * MikroORM's exceptions for the same (`DeadlockException`, `LockWaitTimeoutException`), told by name:
 * a `DriverException` names itself after its class. By name, not `instanceof`, so this file does not
 * load MikroORM: the attempts' worker thread (modules/agent/attempt-worker.ts) runs `retryTransaction`
 * without the ORM.
 */
const RETRYABLE_ORM_EXCEPTIONS: ReadonlySet<string> = new Set([
  'DeadlockException',
  'LockWaitTimeoutException',
]);

/** True for the errors InnoDB asks the client to retry: the transaction was rolled back whole. */
export function isRetryableTransactionError(err: unknown): boolean {
  const e = err as { errno?: unknown; name?: unknown } | null;
  return RETRYABLE_ORM_EXCEPTIONS.has(String(e?.name)) || RETRYABLE_ERRNOS.has(Number(e?.errno));
}

/**
 * Runs `attempt` (one whole transaction) and, when InnoDB rolls it back for a deadlock or a lock wait
 * timeout, runs it again, up to {@link TRANSACTION_TRIES} times with a short random pause (two
 * admins deleting or demoting each other at once got a 500). Any other error, or the last retryable
 * one, is thrown (the error handler answers a retryable one with 503). The one retry rule of the
 * server: `transaction` below and the attempts' bare pool (sql.ts `sqlBatchTransaction`).
 */
export async function retryTransaction<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (err) {
      if (tries >= TRANSACTION_TRIES || !isRetryableTransactionError(err)) throw err;
      // Both sides of a deadlock retry: a random pause keeps them from meeting again.
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * tries));
    }
  }
}

/**
 * Runs `work` in a transaction (`em.transactional`), retried as `retryTransaction` says. `work` must
 * only touch the database: it may run more than once.
 */
export function transaction<T>(em: EntityManager, work: (em: EntityManager) => Promise<T>): Promise<T> {
  return retryTransaction(() => em.transactional(work));
}
