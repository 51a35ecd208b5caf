/**
 * The simulated judge and projector screens, run in worker threads (screen-worker.ts) so that
 * decoding pushes does not stall the main thread that times the HTTP requests. With several server
 * processes the screens go round-robin over their ports, as a load balancer would. Connections ramp
 * up in batches (each batch connects before the next starts) so the 2-core machine copes.
 * Times are ms; arrival times come back relative to the run's `t0` (metrics.now()).
 */
import { Worker } from 'node:worker_threads';
import { Histogram } from './metrics.js';

/** What a worker gives back in socket.io mode: one entry per distinct (team, version) it saw. */
export interface ScreenRecords {
  team: Int32Array;
  version: Int32Array;
  /** `number_attempts` carried by the push. */
  n: Int32Array;
  /** Per record, arrival (ms since t0) per screen of the worker, NaN when it never arrived. */
  arrivals: Float32Array[];
}

/**
 * How a screen talks Socket.IO: `socket.io` = the real socket.io-client (default, what the web uses);
 * `raw` = the same protocol over a bare ws socket, much cheaper for the load tester, no reconnection.
 */
export type ScreenClient = 'socket.io' | 'raw';

/** Main thread to worker. */
export type ToWorker =
  | {
      type: 'connect';
      client: ScreenClient;
      urls: string[];
      token: string;
      first: number;
      count: number;
      batch: number;
    }
  | { type: 'connect-ws'; url: string; count: number; batch: number }
  | { type: 'mark' }
  | { type: 'collect' }
  | { type: 'close' };

/** Worker to main thread. */
export type FromWorker =
  | { type: 'progress'; connected: number; failed: number }
  | { type: 'connected'; connected: number; failed: number }
  /** Push frames and board rows received in the last second, screens connected now. */
  | { type: 'tick'; pushes: number; rows: number; open: number }
  | { type: 'marked'; open: Uint8Array }
  | {
      type: 'records';
      records: ScreenRecords;
      duplicates: number;
      disconnects: number;
      reconnects: number;
      /** Event-loop utilisation of the worker between `mark` and `collect` (0..1). */
      elu: number;
    }
  | {
      type: 'ws-result';
      histogram: { counts: Float64Array; count: number; sum: number; max: number };
      received: number;
      elu: number;
    }
  | { type: 'closed' };

/** Result of `collect()` in socket.io mode. */
export interface CollectedScreens {
  /** Per worker: its records and which of its screens were connected when traffic started. */
  parts: Array<{ records: ScreenRecords; expected: Uint8Array }>;
  duplicates: number;
  disconnects: number;
  reconnects: number;
  /** Mean event-loop utilisation of the screen workers during the run (0..1). */
  elu: number;
}

const WORKER_FILE = new URL('./screen-worker.ts', import.meta.url).href;
// Worker threads do not inherit tsx's loader: register it first, then load the TypeScript entry.
const BOOT = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(WORKER_FILE)}); })
  .catch((err) => { console.error(err); process.exit(1); });`;

/** A pool of screen workers; one instance per phase (product run, ws baseline). */
export class ScreenPool {
  private readonly workers: Worker[];
  private readonly listeners = new Set<(w: number, message: FromWorker) => void>();
  /** Push frames received by every screen since the pool started (as of the workers' last ticks). */
  pushesTotal = 0;
  /** Board rows received (a gathered frame carries several). */
  rowsTotal = 0;
  private readonly openPerWorker: number[];
  private expected: Uint8Array[] = [];

  /** Starts `count` workers; `t0` (ms, metrics.now()) is the origin of arrival times. */
  constructor(count: number, t0: number) {
    this.workers = Array.from({ length: count }, () => new Worker(BOOT, { eval: true, workerData: { t0 } }));
    this.openPerWorker = this.workers.map(() => 0);
    this.workers.forEach((worker, w) => {
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'tick') {
          this.pushesTotal += message.pushes;
          this.rowsTotal += message.rows;
          this.openPerWorker[w] = message.open;
        }
        for (const listener of this.listeners) listener(w, message);
      });
      worker.on('error', (err) =>
        process.stderr.write(`[bench] screen worker ${w} failed: ${err.stack ?? err}\n`),
      );
    });
  }

  /** Screens connected now (as of the last tick, at most 1 s old). */
  get open(): number {
    return this.openPerWorker.reduce((a, b) => a + b, 0);
  }

  /** Resolves with the first message of `type` from every worker, in worker order. */
  private all<T extends FromWorker['type']>(type: T, send?: (w: number) => ToWorker) {
    return new Promise<Array<Extract<FromWorker, { type: T }>>>((resolve) => {
      const got = new Array<Extract<FromWorker, { type: T }>>(this.workers.length);
      let left = this.workers.length;
      const listener = (w: number, message: FromWorker) => {
        if (message.type !== type || got[w]) return;
        got[w] = message as Extract<FromWorker, { type: T }>;
        if (--left === 0) {
          this.listeners.delete(listener);
          resolve(got);
        }
      };
      this.listeners.add(listener);
      if (send) this.workers.forEach((worker, w) => worker.postMessage(send(w)));
    });
  }

  /** Shares of `total` per worker. */
  private shares(total: number): number[] {
    const n = this.workers.length;
    return this.workers.map((_, w) => Math.floor(total / n) + (w < total % n ? 1 : 0));
  }

  /**
   * Connects `total` socket.io screens with `token`, screen i to `urls[i % urls.length]`, `batch` at
   * a time overall; `onProgress` gets the running totals.
   */
  async connect(
    client: ScreenClient,
    urls: string[],
    token: string,
    total: number,
    batch: number,
    onProgress: (connected: number, failed: number) => void,
  ): Promise<{ connected: number; failed: number }> {
    const shares = this.shares(total);
    const firsts = shares.map((_, w) => shares.slice(0, w).reduce((a, b) => a + b, 0));
    const perWorkerBatch = Math.max(1, Math.ceil(batch / this.workers.length));
    const progress = this.shares(0).map(() => ({ connected: 0, failed: 0 }));
    const listener = (w: number, message: FromWorker) => {
      if (message.type !== 'progress') return;
      progress[w] = { connected: message.connected, failed: message.failed };
      onProgress(
        progress.reduce((a, p) => a + p.connected, 0),
        progress.reduce((a, p) => a + p.failed, 0),
      );
    };
    this.listeners.add(listener);
    const done = await this.all('connected', (w) => ({
      type: 'connect',
      client,
      urls,
      token,
      first: firsts[w]!,
      count: shares[w]!,
      batch: perWorkerBatch,
    }));
    this.listeners.delete(listener);
    return {
      connected: done.reduce((a, d) => a + d.connected, 0),
      failed: done.reduce((a, d) => a + d.failed, 0),
    };
  }

  /** Connects `total` bare ws clients to `url` (the baseline), `batch` at a time overall. */
  async connectWs(url: string, total: number, batch: number): Promise<{ connected: number; failed: number }> {
    const shares = this.shares(total);
    const perWorkerBatch = Math.max(1, Math.ceil(batch / this.workers.length));
    const done = await this.all('connected', (w) => ({
      type: 'connect-ws',
      url,
      count: shares[w]!,
      batch: perWorkerBatch,
    }));
    return {
      connected: done.reduce((a, d) => a + d.connected, 0),
      failed: done.reduce((a, d) => a + d.failed, 0),
    };
  }

  /** Notes which screens are connected as traffic starts: only they are expected to see changes. */
  async mark(): Promise<number> {
    const marked = await this.all('marked', () => ({ type: 'mark' }));
    this.expected = marked.map((m) => m.open);
    return this.expected.reduce((a, mask) => a + mask.reduce((s, v) => s + v, 0), 0);
  }

  /** Takes every worker's push records (socket.io mode). */
  async collect(): Promise<CollectedScreens> {
    const got = await this.all('records', () => ({ type: 'collect' }));
    return {
      parts: got.map((g, w) => ({ records: g.records, expected: this.expected[w] ?? new Uint8Array() })),
      duplicates: got.reduce((a, g) => a + g.duplicates, 0),
      disconnects: got.reduce((a, g) => a + g.disconnects, 0),
      reconnects: got.reduce((a, g) => a + g.reconnects, 0),
      elu: got.reduce((a, g) => a + g.elu, 0) / got.length,
    };
  }

  /** Takes the baseline's latencies (ws mode): merged histogram (ms) and pushes received. */
  async collectWs(): Promise<{ histogram: Histogram; received: number; elu: number }> {
    const got = await this.all('ws-result', () => ({ type: 'collect' }));
    const histogram = new Histogram();
    for (const g of got) histogram.merge(Histogram.from(g.histogram));
    return {
      histogram,
      received: got.reduce((a, g) => a + g.received, 0),
      elu: got.reduce((a, g) => a + g.elu, 0) / got.length,
    };
  }

  /** Closes every screen and ends the workers. */
  async close(): Promise<void> {
    await Promise.race([
      this.all('closed', () => ({ type: 'close' })),
      new Promise((r) => setTimeout(r, 10_000)),
    ]);
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
