/*
 * The attempts' worker thread (attempt-thread.ts starts it; scripts/build.mjs bundles it as
 * server/dist/attempt-worker.js): its own bare mysql2 pool on the app's database (db/sql.ts
 * `createSqlPool`, the ORM pool's limits, READ COMMITTED), and the group commit's statements
 * (attempt-group.ts `commitAttemptGroup`: two round trips, retried on a deadlock or lock wait timeout)
 * for each group the main thread sends; it answers what the group committed, or its error with the
 * fields that tell its kind (`cloneError`). Nothing else runs here: no ORM, no HTTP, no push.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createSqlPool } from '../../db/sql.js';
import { commitAttemptGroup } from './attempt-group.js';
import {
  cloneError,
  type AttemptWorkerData,
  type AttemptWorkerReply,
  type AttemptWorkerRequest,
} from './attempt-thread.js';

const port = parentPort!;
const { databaseUrl, connections } = workerData as AttemptWorkerData;
const pool = createSqlPool(databaseUrl, connections);

port.on('message', (request: AttemptWorkerRequest) => {
  if ('close' in request) {
    // Ends the pool's connections, then the thread (`process.exit` in a worker ends the thread only).
    void pool
      .end()
      .catch(() => undefined)
      .finally(() => process.exit(0));
    return;
  }
  commitAttemptGroup(pool, request.group).then(
    (written) => port.postMessage({ id: request.id, written } satisfies AttemptWorkerReply),
    (err: unknown) =>
      port.postMessage({ id: request.id, error: cloneError(err) } satisfies AttemptWorkerReply),
  );
});
