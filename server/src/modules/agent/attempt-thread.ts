import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { BuildOptions, Plugin } from 'esbuild';
import type { GroupedBatch, GroupWritten } from './attempt-group.js';

/*
 * The attempts' worker thread, main side (docs/architecture.md "An attempt, from the machine to every
 * screen"): the group commit's statements run on a thread of their own with their own mysql2 pool, so a
 * group's two round trips never wait behind the push's socket writes on the main event loop, and the
 * push never waits behind a group's JavaScript. attempt-writer.ts keeps the queue, the groups, the
 * answers and the push; attempt-worker.ts is the thread.
 */

/** What the worker is started with (`workerData`). */
export interface AttemptWorkerData {
  /** The app's `DATABASE_URL` (a `?socketPath=` included). */
  databaseUrl: string;
  /** Connections of the thread's pool: the groups written at once. */
  connections: number;
}

/** Main thread → worker: one group to write, or the order to end its pool and stop. */
export type AttemptWorkerRequest = { id: number; group: GroupedBatch[] } | { close: true };

/** Worker → main thread: what one group committed, or why it did not. */
export type AttemptWorkerReply = { id: number; written: GroupWritten } | { id: number; error: ClonedError };

/**
 * An error as it crosses the thread boundary (structured clone keeps an Error's message but drops the
 * driver's `code` and `errno`, which tell a database that is down from a deadlock from a bad query:
 * db/timeouts.ts `isDatabaseUnavailable`, db/transaction.ts `isRetryableTransactionError`).
 */
export interface ClonedError {
  name: string;
  message: string;
  stack?: string;
  code?: string;
  errno?: number;
  sqlState?: string;
  sqlMessage?: string;
  cause?: ClonedError;
}

/** `err` as plain data, its cause chain included (at most 4 deep, as `isDatabaseUnavailable` reads it). */
export function cloneError(err: unknown, depth = 0): ClonedError {
  const e = (err ?? {}) as Partial<Record<keyof ClonedError, unknown>>;
  const cloned: ClonedError = {
    name: typeof e.name === 'string' ? e.name : 'Error',
    message: typeof e.message === 'string' ? e.message : String(err),
  };
  if (typeof e.stack === 'string') cloned.stack = e.stack;
  if (typeof e.code === 'string') cloned.code = e.code;
  if (typeof e.errno === 'number') cloned.errno = e.errno;
  if (typeof e.sqlState === 'string') cloned.sqlState = e.sqlState;
  if (typeof e.sqlMessage === 'string') cloned.sqlMessage = e.sqlMessage;
  if (e.cause !== undefined && depth < 3) cloned.cause = cloneError(e.cause, depth + 1);
  return cloned;
}

/** An Error again, with the fields the retry rule and the 503 mapping read. */
function reviveError(cloned: ClonedError): Error {
  const err = new Error(cloned.message, cloned.cause ? { cause: reviveError(cloned.cause) } : undefined);
  err.name = cloned.name;
  if (cloned.stack) err.stack = cloned.stack;
  for (const key of ['code', 'errno', 'sqlState', 'sqlMessage'] as const) {
    if (cloned[key] !== undefined) Object.assign(err, { [key]: cloned[key] });
  }
  return err;
}

/**
 * The error of the groups a worker was writing when it stopped (it crashed, ran out of memory, or was
 * ended by `close`): answered like a database that is down (503; db/timeouts.ts), so the agents resend
 * them (nothing unanswered was acknowledged; a group that had committed counts nothing twice).
 */
class AttemptWorkerExitedError extends Error {
  readonly code = 'ATTEMPT_WORKER_EXITED';
  constructor(cause?: unknown) {
    super('The attempts worker thread stopped', { cause });
  }
}

/**
 * A thread of `AttemptThread`: its Worker once it is there, `started` resolving to it (undefined when it
 * could not start, or was closed first), and the groups sent to it and not answered, by message id.
 */
interface Running {
  worker: Worker | undefined;
  started: Promise<Worker | undefined>;
  pending: Map<number, Waiting>;
}

/** A group sent to the thread, waiting for its answer. */
interface Waiting {
  resolve: (written: GroupWritten) => void;
  reject: (err: unknown) => void;
}

/** How long `close` waits for the worker to end its pool before it terminates the thread (ms). */
const CLOSE_WAIT_MS = 2_000;

/**
 * The worker's heap limit (MB): it holds the groups in flight (at most `ATTEMPT_GROUPS_AT_ONCE` of
 * `MAX_GROUP_ATTEMPTS` attempts) and its pool, and nothing else.
 */
const WORKER_HEAP_MB = 96;

/**
 * The worker thread of the attempts group commit (attempt-worker.ts), started by `open` or by the first
 * group after it stopped. One message each way per group; up to `connections` groups at once (the
 * writer sends no more). Runs from the bundle (scripts/build.mjs builds
 * `server/dist/attempt-worker.js` beside `server.js`) and from the sources (the tests, `npm run dev`:
 * `sourcesWorkerScript`).
 */
export class AttemptThread {
  /** The running thread (or the one starting), and the groups it was sent and has not answered. */
  private running: Running | undefined;
  private nextId = 0;

  /**
   * @param databaseUrl the app's `DATABASE_URL`: the thread's pool is `createSqlPool(databaseUrl,
   *   connections)` (db/sql.ts: the ORM pool's limits, READ COMMITTED).
   * @param connections connections of that pool: the groups the writer sends at once.
   */
  constructor(
    private readonly databaseUrl: string,
    private readonly connections: number,
  ) {}

  /**
   * Writes `group` on the thread (`commitAttemptGroup`, attempt-group.ts) and answers what it committed.
   * @throws the database's error as the thread met it (its `code`, `errno` and cause kept:
   *   `ClonedError`), or `AttemptWorkerExitedError` (code `ATTEMPT_WORKER_EXITED`, a 503) when the
   *   thread stopped first.
   */
  commit(group: GroupedBatch[]): Promise<GroupWritten> {
    const running = this.running ?? this.start();
    const id = ++this.nextId;
    const message: AttemptWorkerRequest = { id, group };
    return new Promise((resolve, reject) => {
      running.pending.set(id, { resolve, reject });
      // Handed over at once to a running thread; a starting one gets it when it is there.
      if (running.worker) running.worker.postMessage(message);
      else void running.started.then((worker) => worker?.postMessage(message));
    });
  }

  /**
   * Starts the thread now, if it is not running (the app does at the first call of its agent routes, so
   * the first group does not wait for the thread to load). Resolves once it is there (or could not
   * start: the next group tries again).
   */
  async open(): Promise<void> {
    await (this.running ?? this.start()).started;
  }

  /**
   * Ends the thread: its pool closes, then it stops (terminated after `CLOSE_WAIT_MS` when a frozen
   * database keeps the pool from closing). Call it once nothing is being written (the writer drained).
   */
  async close(): Promise<void> {
    const running = this.running;
    if (!running) return;
    this.running = undefined;
    const worker = await running.started;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ close: true } satisfies AttemptWorkerRequest);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), CLOSE_WAIT_MS);
    });
    if ((await Promise.race([exited, late])) === 'late') await worker.terminate();
    clearTimeout(timer);
  }

  private start(): Running {
    const options: WorkerOptions = {
      workerData: {
        databaseUrl: this.databaseUrl,
        connections: this.connections,
      } satisfies AttemptWorkerData,
      // Not the process's own options (a heap size is refused in a worker; `resourceLimits` is its own).
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    };
    const running: Running = { worker: undefined, started: Promise.resolve(undefined), pending: new Map() };
    // A thread that stopped (or never started) answers its groups 503; the next group starts another.
    const stopped = (cause?: unknown) => {
      if (this.running === running) this.running = undefined;
      for (const waiting of running.pending.values()) waiting.reject(new AttemptWorkerExitedError(cause));
      running.pending.clear();
    };
    const attach = (worker: Worker): Worker => {
      // The server's sockets and timers keep the process alive, not this thread.
      worker.unref();
      worker.on('message', (reply: AttemptWorkerReply) => {
        const waiting = running.pending.get(reply.id);
        if (!waiting) return;
        running.pending.delete(reply.id);
        if ('written' in reply) waiting.resolve(reply.written);
        else waiting.reject(reviveError(reply.error));
      });
      worker.on('error', stopped);
      worker.on('exit', () => stopped());
      running.worker = worker;
      return worker;
    };
    if (import.meta.url.endsWith('.ts')) {
      // From the sources (the tests, `npm run dev`): the worker's bundle is made first.
      running.started = sourcesWorkerScript().then(
        (script) => {
          if (this.running === running) return attach(new Worker(script, options));
          stopped(); // closed while its bundle was being made
          return undefined;
        },
        (err: unknown) => {
          stopped(err);
          return undefined;
        },
      );
    } else {
      // The bundle's own entry point beside server.js (scripts/build.mjs).
      running.started = Promise.resolve(
        attach(new Worker(new URL('./attempt-worker.js', import.meta.url), options)),
      );
    }
    this.running = running;
    return running;
  }
}

/** The worker's script made from the sources (`sourcesWorkerScript`), for every thread of this process. */
let fromSources: Promise<URL> | undefined;

/**
 * attempt-worker.ts bundled by esbuild (a development dependency) as scripts/build.mjs bundles it
 * (scripts/esbuild-server.mjs: our TypeScript and `@concurso/shared` inlined, npm packages external,
 * only what the thread uses), once per process and content, into node_modules/.cache/attempt-worker/
 * (where the packages resolve as from server/dist/). Not tsx in the thread: tsx hooks only the main
 * thread before Node 22, and its `tsImport` loaded the modules' whole index.ts graphs file by file,
 * seconds per thread on a busy machine.
 * @throws esbuild's error when the sources do not build (the next group tries again).
 */
function sourcesWorkerScript(): Promise<URL> {
  fromSources ??= (async () => {
    const esbuild = await import('esbuild');
    const options = (await import(
      new URL('../../../../scripts/esbuild-server.mjs', import.meta.url).href
    )) as {
      SERVER_BUILD_OPTIONS: BuildOptions;
      WORKER_PLUGINS: Plugin[];
    };
    const { outputFiles } = await esbuild.build({
      ...options.SERVER_BUILD_OPTIONS,
      entryPoints: [fileURLToPath(new URL('./attempt-worker.ts', import.meta.url))],
      plugins: options.WORKER_PLUGINS,
      write: false,
    });
    const code = outputFiles[0]!.contents;
    const folder = fileURLToPath(new URL('../../../../node_modules/.cache/attempt-worker/', import.meta.url));
    const file = path.join(folder, `${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
    if (!existsSync(file)) {
      mkdirSync(folder, { recursive: true });
      // Written aside and renamed: another process starting its thread never reads half a file.
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, code);
      renameSync(temporary, file);
    }
    return pathToFileURL(file);
  })();
  fromSources.catch(() => {
    fromSources = undefined;
  });
  return fromSources;
}
