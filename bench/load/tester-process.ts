/**
 * What both kinds of tester process (lean-tester.ts, full-tester.ts) share: the measurements of the
 * traffic phase (`TesterMeasurements`) and the loop that answers the main process's requests
 * (tester-protocol.ts), sends a tick every second and exits with the main process (`serveTester`).
 * Each tester only brings how its screens connect, receive and close.
 */
import { performance } from 'node:perf_hooks';
import { clockMs } from '@concurso/shared';
import { Histogram, now } from './metrics.js';
import type { HeldRow } from './board-replica.js';
import type { TesterBoot, TesterReply, TesterRequest, TesterResult, TesterTick } from './tester-protocol.js';

/** The settings this process was started with (argv[2], JSON). */
export const boot = JSON.parse(process.argv[2] ?? '{}') as TesterBoot;

/** Sends a message to the main process. */
const send = (message: TesterReply | TesterTick) => process.send!(message);

/** What each screen measures (its own p99, frames and last frame), by either tester. */
export interface MeasuredScreen {
  hist: Histogram;
  frames: number;
  /** clockMs() of its last frame (NaN: none). */
  lastFrameAt: number;
  spec: { index: number };
}

/** Counters of one tester process: per second (ticks), and since `mark` (the traffic phase). */
export class TesterMeasurements {
  /** True between `mark` and `close-screens`: frames count towards the result. */
  measuring = false;
  /** `push_ms_from_commit` of every screen of the process, each frame weighted by its rows. */
  readonly hist = new Histogram();
  frames = 0;
  rows = 0;
  resets = 0;
  disconnects = 0;
  reconnects = 0;
  /** Screens connected now. */
  open = 0;
  /** Connection progress during `connect`. */
  connected = 0;
  failed = 0;
  private tickFrames = 0;
  private tickRows = 0;
  private eluStart = performance.eventLoopUtilization();
  private eluTraffic: number | null = null;

  /**
   * A frame reached `screen` at `at` (clockMs()), committed at `committedAt`, with `rows` rows:
   * counted for the tick always, and for the result while measuring.
   */
  frame(screen: MeasuredScreen, at: number, committedAt: number, rows: number): void {
    this.tickFrames++;
    this.tickRows += rows;
    if (!this.measuring) return;
    const ms = at - committedAt;
    screen.hist.add(ms, rows);
    this.hist.add(ms, rows);
    screen.frames++;
    screen.lastFrameAt = at;
    this.frames++;
    this.rows += rows;
  }

  /** Starts the measured phase: every count and histogram from zero, ELU from now. */
  mark(screens: readonly MeasuredScreen[]): void {
    for (const screen of screens) {
      screen.hist = new Histogram();
      screen.frames = 0;
      screen.lastFrameAt = Number.NaN;
    }
    this.hist.counts.fill(0);
    this.hist.count = this.hist.sum = this.hist.max = 0;
    this.frames = this.rows = this.resets = this.disconnects = this.reconnects = 0;
    this.eluStart = performance.eventLoopUtilization();
    this.eluTraffic = null;
    this.measuring = true;
  }

  /** What every tester reports on `collect`; each adds its own extras (records, recorded frames). */
  result(screens: readonly MeasuredScreen[]): TesterResult {
    return {
      histogram: this.hist.toJSON(),
      screenP99: Float64Array.from(screens, (s) => (s.hist.count > 0 ? s.hist.percentile(99) : Number.NaN)),
      screenFrames: Float64Array.from(screens, (s) => s.frames),
      screenLastFrameAt: Float64Array.from(screens, (s) => s.lastFrameAt),
      screenIndex: Int32Array.from(screens, (s) => s.spec.index),
      frames: this.frames,
      rows: this.rows,
      resets: this.resets,
      disconnects: this.disconnects,
      reconnects: this.reconnects,
      elu: this.eluTraffic ?? performance.eventLoopUtilization(this.eluStart).utilization,
      clockOffset: clockMs() - now(),
    };
  }

  /** Traffic is over: the event-loop utilisation of the traffic phase is taken now. */
  trafficEnd(): void {
    this.eluTraffic = performance.eventLoopUtilization(this.eluStart).utilization;
  }

  /** The tick of the last second, counters of the second back to zero. */
  tick(): TesterTick {
    const tick: TesterTick = {
      type: 'tick',
      frames: this.tickFrames,
      rows: this.tickRows,
      open: this.open,
      connected: this.connected,
      failed: this.failed,
    };
    this.tickFrames = this.tickRows = 0;
    return tick;
  }
}

/** What a tester does on each request; `state` only the full tester answers. */
export interface TesterHandlers {
  connect(request: Extract<TesterRequest, { type: 'connect' }>): Promise<void>;
  /**
   * Starts the measured phase (`TesterMeasurements.mark` and the tester's own state); answers, per
   * screen, 1 when it is open (and, for a full screen, loaded) now.
   */
  mark(): Uint8Array;
  collect(): TesterResult;
  closeScreens(): void | Promise<void>;
  state?(): Array<Map<number, HeldRow>>;
}

/**
 * Serves the main process: answers each request (tester-protocol.ts) with `handlers`, sends a tick
 * every second, and exits when the main process is gone (crash, Ctrl-C: nothing to report to).
 */
export function serveTester(measure: TesterMeasurements, handlers: TesterHandlers, name: string): void {
  const answer = async (request: TesterRequest): Promise<TesterReply> => {
    switch (request.type) {
      case 'connect':
        await handlers.connect(request);
        return { id: request.id, type: 'connected', connected: measure.connected, failed: measure.failed };
      case 'mark': {
        const openMask = handlers.mark();
        return { id: request.id, type: 'marked', open: measure.open, openMask };
      }
      case 'traffic-end':
        measure.trafficEnd();
        return { id: request.id, type: 'ok' };
      case 'state':
        if (!handlers.state) break;
        return { id: request.id, type: 'state', states: handlers.state() };
      case 'collect':
        return { id: request.id, type: 'collected', result: handlers.collect() };
      case 'close-screens':
        await handlers.closeScreens();
        return { id: request.id, type: 'ok' };
      case 'exit':
        await handlers.closeScreens();
        setTimeout(() => process.exit(0), 50);
        return { id: request.id, type: 'ok' };
    }
    const unknown = request as { id: number; type: string };
    return { id: unknown.id, type: 'error', message: `unknown request ${unknown.type}` };
  };
  process.on('message', (request: TesterRequest) => {
    answer(request).then(send, (err: unknown) =>
      send({ id: request.id, type: 'error', message: err instanceof Error ? err.message : String(err) }),
    );
  });
  setInterval(() => send(measure.tick()), 1_000).unref();
  process.on('disconnect', () => process.exit(0));
  process.title = `bench-${boot.name ?? name}`;
}
