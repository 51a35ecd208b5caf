/**
 * The push baseline: a bare `ws` broadcast server in its own child process (baseline-ws-server.ts)
 * fans out the same push frames per second, carrying the same rows per frame, as each screen got in
 * the product run, to the same number of screens (bare ws clients in the same screen workers). Its
 * latency, send to arrival in ms, is the limit this machine puts on any push channel at that volume;
 * the product's `push_ms` is compared with it.
 */
import { fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { LatencySummary } from './metrics.js';
import { now } from './metrics.js';
import { ScreenPool } from './screens.js';

/** Baseline settings. */
export interface WsBaselineOptions {
  screens: number;
  /** Frames per second to broadcast (to every client). */
  framesPerS: number;
  /** Board rows in each frame. */
  rowsPerFrame: number;
  durationS: number;
  workers: number;
  rampBatch: number;
  log: (line: string) => void;
}

/** Baseline figures. */
export interface WsBaselineResult {
  push_ms: LatencySummary;
  /** Frames broadcast, and per second. */
  events: number;
  events_per_s: number;
  screens: number;
  /** Expected (event, screen) deliveries that never arrived. */
  events_lost: number;
  /** Event-loop utilisation of the screen workers (0..1). */
  screens_elu: number;
  /** CPU of the bare ws server process while broadcasting, % of one core. */
  server_cpu_pct: number;
}

/** utime + stime of `pid` in clock ticks (1/100 s). */
async function cpuTicks(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

const CHILD = fileURLToPath(new URL('./baseline-ws-server.ts', import.meta.url));

/** Runs the baseline; the child process is always ended. */
export async function runWsBaseline(o: WsBaselineOptions): Promise<WsBaselineResult> {
  const child = fork(CHILD, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pool = new ScreenPool(o.workers, now());
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m: { type: string; port: number }) => resolve(m.port));
      child.once('exit', (code) => reject(new Error(`ws baseline server exited (${code})`)));
    });
    const url = `ws://127.0.0.1:${port}`;
    const { connected, failed } = await pool.connectWs(url, o.screens, o.rampBatch);
    o.log(
      `ws baseline: ${connected} clients connected (${failed} failed), ${o.framesPerS.toFixed(1)} frames/s of ${o.rowsPerFrame} rows for ${o.durationS} s`,
    );
    const done = new Promise<number>((resolve) =>
      child.on('message', (m: { type: string; events: number }) => {
        if (m.type === 'done') resolve(m.events);
      }),
    );
    const cpuStart = { ticks: await cpuTicks(child.pid!), at: now() };
    child.send({
      type: 'run',
      framesPerS: o.framesPerS,
      rowsPerFrame: o.rowsPerFrame,
      durationS: o.durationS,
    });
    const events = await done;
    const serverCpuPct =
      ((((await cpuTicks(child.pid!)) - cpuStart.ticks) / 100) * 100 * 1000) / (now() - cpuStart.at);
    // Grace: until every delivery arrived, at most 5 s.
    const expected = events * connected;
    const deadline = Date.now() + 5_000;
    let received = 0;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1_100));
      if (pool.pushesTotal >= expected) break;
    }
    const result = await pool.collectWs();
    received = result.received;
    return {
      push_ms: result.histogram.summary(),
      events,
      events_per_s: events / o.durationS,
      screens: connected,
      events_lost: Math.max(0, expected - received),
      screens_elu: result.elu,
      server_cpu_pct: serverCpuPct,
    };
  } finally {
    await pool.close();
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
  }
}
