/**
 * Messages between the load tester's main process (cli.ts, through testers.ts) and its tester
 * processes (lean-tester.ts, full-tester.ts), over Node's IPC channel with the `advanced`
 * serialization (typed arrays and Buffers travel as they are). Every request carries an `id`; the
 * child answers once with the same `id`. Besides answers, a child sends a `tick` every second.
 * Times: `*At` fields are ms on the shared clock `clockMs()` (@concurso/shared) unless named `*Rel`
 * (ms since the run's t0 on metrics.now()); durations are ms.
 */
import type { HeldRow } from './board-replica.js';

/** One screen to open: its number among all N screens and the server (or baseline) URL it talks to. */
export interface ScreenSpec {
  index: number;
  url: string;
}

/** A histogram as `Histogram.toJSON()` gives it. */
interface HistogramData {
  counts: Float64Array;
  count: number;
  sum: number;
  max: number;
}

/** Main process to tester. */
export type TesterRequest =
  | {
      id: number;
      type: 'connect';
      /**
       * `socket.io`: a product server (Engine.IO handshake, `40{"token":…}`); `baseline`: the bare ws
       * replay server (no handshake: open means connected).
       */
      mode: 'socket.io' | 'baseline';
      screens: ScreenSpec[];
      token: string;
      /** Screens connecting at once in this process. */
      batch: number;
      /** Lean only: the first screen records every frame's bytes for the baseline. */
      record: boolean;
      /** Lean only: offer permessage-deflate (`--client-deflate`). */
      deflate: boolean;
    }
  /** Starts measuring: counters and histograms from zero, ELU from now. Answers the screens open now. */
  | { id: number; type: 'mark' }
  /** Traffic is over: the ELU of the traffic phase is taken now. */
  | { id: number; type: 'traffic-end' }
  /** Full only: every screen's held rows, now. */
  | { id: number; type: 'state' }
  /** Everything measured since `mark`. */
  | { id: number; type: 'collect' }
  /** Closes every screen (the process stays, for the next phase). */
  | { id: number; type: 'close-screens' }
  /** Closes every screen and exits. */
  | { id: number; type: 'exit' };

/** What a tester measured (`collect`). */
export interface TesterResult {
  /** `push_ms_from_commit` of every screen of the process, each frame weighted by its rows. */
  histogram: HistogramData;
  /** Per screen (in `screens` order): its own p99 (ms), NaN when it got no frame. */
  screenP99: Float64Array;
  /** Per screen: frames received since `mark`. */
  screenFrames: Float64Array;
  /** Per screen: clockMs() of its last frame (NaN: none). */
  screenLastFrameAt: Float64Array;
  /** Per screen: its number among all N screens (`ScreenSpec.index`). */
  screenIndex: Int32Array;
  frames: number;
  rows: number;
  resets: number;
  disconnects: number;
  reconnects: number;
  /** Event-loop utilisation between `mark` and `traffic-end` (or `collect` when none came), 0..1. */
  elu: number;
  /** `clockMs() - metrics.now()` in this process: compared across processes, the clock skew. */
  clockOffset: number;
  /** Lean, recording screen only: every frame it got since `mark`, in arrival order. */
  recorded?: RecordedFrame[];
  /** Full only: arrivals of rows, for `push_ms_from_request` (matching.ts). */
  records?: ArrivalRecords;
}

/** One frame the recording lean screen got. */
export interface RecordedFrame {
  /** The message's bytes as received. */
  bytes: Buffer;
  committedAt: number;
  receivedAt: number;
}

/**
 * Rows the full screens took, one entry per distinct (team, version): its `number_attempts` and, per
 * screen of the process, when it was first taken (ms since t0, metrics.now(); NaN: never).
 */
export interface ArrivalRecords {
  team: Int32Array;
  version: Int32Array;
  n: Int32Array;
  arrivals: Float32Array[];
}

/** Tester to main process. */
export type TesterReply =
  | { id: number; type: 'connected'; connected: number; failed: number }
  | { id: number; type: 'marked'; open: number; openMask: Uint8Array }
  | { id: number; type: 'ok' }
  | { id: number; type: 'state'; states: Array<Map<number, HeldRow>> }
  | { id: number; type: 'collected'; result: TesterResult }
  | { id: number; type: 'error'; message: string };

/** Unsolicited: every second. */
export interface TesterTick {
  type: 'tick';
  frames: number;
  rows: number;
  open: number;
  /** Connection progress during `connect`. */
  connected: number;
  failed: number;
}

/** Settings a tester process gets at start (argv[2], JSON). */
export interface TesterBoot {
  name: string;
  /** Origin of `*Rel` times (ms, metrics.now()). */
  t0: number;
}
