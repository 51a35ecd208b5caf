/**
 * The push baseline, equal work: the SAME frames (the bytes the run's recording screen
 * received), at the SAME times (each frame due at its committed_at's offset from the first one's), to
 * the SAME number of screens, held by the SAME lean tester processes, measured the SAME way
 * (`receive - committed_at`, weighted by rows, acknowledged), from a bare `ws` server in its own process
 * (baseline-ws-server.ts) pinned like the product's servers. The only difference left is the product's
 * own cost: its push tick, Socket.IO, the database commit before the push. Times are ms.
 */
import { fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { splitFrame } from './frame-header.js';
import { Histogram, now, type LatencySummary } from './metrics.js';
import { pinProcess } from './pinning.js';
import type { ReplayFrame } from './baseline-ws-server.js';
import type { RecordedFrame, TesterResult } from './tester-protocol.js';
import type { TesterProcess } from './testers.js';

/** Baseline settings. */
export interface WsBaselineOptions {
  /** The run's recorded frames, in arrival order. */
  recorded: RecordedFrame[];
  /** Replay only the frames due in the first `durationS` seconds. */
  durationS: number;
  screens: number;
  /** The lean tester processes (their product screens already closed). */
  testers: TesterProcess[];
  /** Screens connecting at once per tester. */
  batch: number;
  /** `taskset -c` list for the baseline server, or null. */
  pinCpus: string | null;
  log: (line: string) => void;
}

/** Baseline figures. */
export interface WsBaselineResult {
  push_ms: LatencySummary;
  push_ms_worst_screen_p99: number | null;
  /** Frames replayed, and per second. */
  frames: number;
  frames_per_s: number;
  rows_per_frame: number;
  screens: number;
  /** (frame, screen) deliveries that never arrived. */
  frames_lost: number;
  /** Event-loop utilisation of each tester process during the replay (0..1). */
  tester_elu: number[];
  /** CPU of the bare ws server process while replaying, % of one core. */
  server_cpu_pct: number;
  /** Worst lateness of a send after its due time (ms): the bare server's own queueing. */
  server_late_ms: number;
}

/** utime + stime of `pid` in clock ticks (1/100 s). */
async function cpuTicks(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

const CHILD = fileURLToPath(new URL('./baseline-ws-server.ts', import.meta.url));

/** The frames of the first `durationS` seconds, cut for restamping, with their due offsets (ms). */
function replayPlan(recorded: RecordedFrame[], durationS: number): Array<ReplayFrame & { rows: number }> {
  const split = recorded.map((r) => splitFrame(r.bytes)).filter((s) => s !== null);
  if (split.length === 0) return [];
  const first = split[0]!.committedAt;
  return split
    .map((s) => ({
      prefix: s.prefix,
      suffix: s.suffix,
      offset: Math.max(0, s.committedAt - first),
      rows: s.rows,
    }))
    .filter((f) => f.offset <= durationS * 1000);
}

/** Runs the baseline; the child process is always ended and the testers' screens closed. */
export async function runWsBaseline(o: WsBaselineOptions): Promise<WsBaselineResult> {
  const plan = replayPlan(o.recorded, o.durationS);
  const rowsTotal = plan.reduce((a, f) => a + f.rows, 0);
  const child = fork(CHILD, [], {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m: { type: string; port: number }) => resolve(m.port));
      child.once('exit', (code) => reject(new Error(`ws baseline server exited (${code})`)));
    });
    if (o.pinCpus) pinProcess(child.pid!, o.pinCpus);
    const url = `ws://127.0.0.1:${port}/`;
    // Screen i in tester i % T, as in the run.
    const shares = o.testers.map((_, t) =>
      Array.from({ length: o.screens }, (_, i) => i)
        .filter((i) => i % o.testers.length === t)
        .map((index) => ({ index, url })),
    );
    const connected = await Promise.all(
      o.testers.map((t, k) =>
        t.call(
          {
            type: 'connect',
            mode: 'baseline',
            screens: shares[k]!,
            token: '',
            batch: o.batch,
            record: false,
            deflate: false,
          },
          'connected',
        ),
      ),
    );
    const clients = connected.reduce((a, c) => a + c.connected, 0);
    o.log(
      `baseline ws: ${clients} clients (${connected.reduce((a, c) => a + c.failed, 0)} failed), replaying ${plan.length} frames (${o.durationS} s at most)`,
    );
    await Promise.all(o.testers.map((t) => t.call({ type: 'mark' }, 'marked')));
    const done = new Promise<{ frames: number; lateMs: number }>((resolve) =>
      child.on('message', (m: { type: string; frames: number; lateMs: number }) => {
        if (m.type === 'done') resolve(m);
      }),
    );
    const cpuStart = { ticks: await cpuTicks(child.pid!), at: now() };
    const startedAt = now();
    child.send({ type: 'run', frames: plan });
    const sent = await done;
    const replayMs = now() - startedAt;
    const serverCpuPct =
      (((await cpuTicks(child.pid!)) - cpuStart.ticks) / 100 / ((now() - cpuStart.at) / 1000)) * 100;
    await Promise.all(o.testers.map((t) => t.call({ type: 'traffic-end' }, 'ok')));
    // Late deliveries: until every (frame, client) arrived, at most 5 s.
    const expected = sent.frames * clients;
    const deadline = now() + 5_000;
    let results: TesterResult[] = [];
    for (;;) {
      results = (await Promise.all(o.testers.map((t) => t.call({ type: 'collect' }, 'collected')))).map(
        (c) => c.result,
      );
      if (results.reduce((a, r) => a + r.frames, 0) >= expected || now() > deadline) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const histogram = new Histogram();
    for (const r of results) histogram.merge(Histogram.from(r.histogram));
    const p99s = results.flatMap((r) => [...r.screenP99].filter((v) => !Number.isNaN(v)));
    const received = results.reduce((a, r) => a + r.frames, 0);
    const seconds = Math.max(0.001, replayMs / 1000);
    return {
      push_ms: histogram.summary(),
      push_ms_worst_screen_p99: p99s.length ? Math.round(Math.max(...p99s) * 100) / 100 : null,
      frames: sent.frames,
      frames_per_s: sent.frames / seconds,
      rows_per_frame: sent.frames ? rowsTotal / sent.frames : 0,
      screens: clients,
      frames_lost: Math.max(0, expected - received),
      tester_elu: results.map((r) => r.elu),
      server_cpu_pct: serverCpuPct,
      server_late_ms: sent.lateMs,
    };
  } finally {
    await Promise.all(o.testers.map((t) => t.call({ type: 'close-screens' }, 'ok').catch(() => undefined)));
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
  }
}
