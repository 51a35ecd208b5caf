/**
 * The main process's side of the tester processes (tester-protocol.ts): starts lean-tester.ts and
 * full-tester.ts as child processes (tsx, IPC with the `advanced` serialization), sends them requests
 * and sums their per-second ticks for the progress line. Child processes inherit the main process's
 * CPU affinity (pinning.ts pins the main process before starting them).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TesterBoot, TesterReply, TesterRequest, TesterTick } from './tester-protocol.js';

/** Distributes `Omit<Request, 'id'>` over the union, so `call({ type: 'mark' })` type-checks. */
type RequestBody = TesterRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

const FILES = {
  lean: fileURLToPath(new URL('./lean-tester.ts', import.meta.url)),
  full: fileURLToPath(new URL('./full-tester.ts', import.meta.url)),
};

/** One tester process. */
export class TesterProcess {
  readonly child: ChildProcess;
  /** The last tick (frames and rows of the last second, screens open, connection tally). */
  lastTick: TesterTick = { type: 'tick', frames: 0, rows: 0, open: 0, connected: 0, failed: 0 };
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (r: TesterReply) => void; reject: (e: Error) => void }
  >();
  private readonly exited: Promise<void>;

  /**
   * @param kind `lean` (bare ws screens) or `full` (socket.io-client screens)
   * @param name for logs and reports (`lean-1`, `full`)
   */
  constructor(
    readonly kind: 'lean' | 'full',
    readonly name: string,
    t0: number,
  ) {
    const bootData: TesterBoot = { name, t0 };
    this.child = fork(FILES[kind], [JSON.stringify(bootData)], {
      execArgv: ['--import', 'tsx'],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (message: TesterReply | TesterTick) => {
      if (message.type === 'tick') {
        this.lastTick = message;
        return;
      }
      const waiter = this.waiting.get(message.id);
      if (!waiter) return;
      this.waiting.delete(message.id);
      if (message.type === 'error') waiter.reject(new Error(`${this.name}: ${message.message}`));
      else waiter.resolve(message);
    });
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        for (const waiter of this.waiting.values())
          waiter.reject(new Error(`${this.name} exited (${code ?? signal})`));
        this.waiting.clear();
        resolve();
      }),
    );
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Sends a request and resolves with its answer of type `T`. */
  call<T extends TesterReply['type']>(
    request: RequestBody,
    expect: T,
  ): Promise<Extract<TesterReply, { type: T }>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, {
        resolve: (reply) =>
          reply.type === expect
            ? resolve(reply as Extract<TesterReply, { type: T }>)
            : reject(new Error(`${this.name}: expected ${expect}, got ${reply.type}`)),
        reject,
      });
      this.child.send({ ...request, id } as TesterRequest);
    });
  }

  /** Asks the process to close its screens and exit; kills it after `waitMs`. */
  async stop(waitMs = 10_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const timer = setTimeout(() => this.child.kill('SIGKILL'), waitMs);
    await this.call({ type: 'exit' }, 'ok').catch(() => undefined);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Sum of the testers' last ticks. */
export function tickTotals(testers: readonly TesterProcess[]) {
  return testers.reduce(
    (a, t) => ({
      frames: a.frames + t.lastTick.frames,
      rows: a.rows + t.lastTick.rows,
      open: a.open + t.lastTick.open,
      connected: a.connected + t.lastTick.connected,
      failed: a.failed + t.lastTick.failed,
    }),
    { frames: 0, rows: 0, open: 0, connected: 0, failed: 0 },
  );
}
