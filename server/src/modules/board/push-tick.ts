import { BOARD_PUSH_WINDOW_MAX_MS } from '@concurso/shared';

/**
 * Event-loop utilisation (0..1) that counts as saturated: the push window grows while the averaged
 * utilisation stays above it, and shrinks after any interval below it. No band between the two: with
 * one (0.85..0.95, measured in bench/BENCHMARKS.md "The push window after a burst"), a window grown
 * while 500 screens connected stayed at the ceiling for seconds of traffic that kept the loop 86-92 %
 * busy, and those seconds were most of the push's p95 and p99.
 */
const BUSY_LOOP = 0.95;

/**
 * The window after a flush is at least this many times the averaged flush: pushing takes at most a third
 * of the event loop (the flush, then twice its time for everything else), whatever the number of screens.
 */
const WINDOW_PER_FLUSH = 2;

/** Least growth of the window per flush while the loop stays saturated (ms), so a tiny window grows too. */
const GROWTH_STEP_MS = 1;

/**
 * Weight of the last flush in the averaged utilisation and flush time (an exponential average over about
 * five flushes). Measured (bench/BENCHMARKS.md, "The push tick"): reacting to one flush alone, a single
 * slow flush (a garbage collection, the core lent to MariaDB) doubled the following windows, and one busy
 * interval grew the window for good; that was most of the push's p99.
 */
const SMOOTHING = 0.2;

/** The push window's state (board-publisher.ts), carried from one flush to the next. */
export interface PushWindow {
  /**
   * How long changes gather after a flush before the next one may go (ms), between
   * `WINDOW_PER_FLUSH` × `flushAvgMs` and `BOARD_PUSH_WINDOW_MAX_MS`. No fixed floor: on a board whose
   * flushes take 2 ms the window is 4 ms.
   */
  windowMs: number;
  /** Averaged event-loop utilisation between flushes (0..1). */
  busyAvg: number;
  /** Averaged flush duration (ms). */
  flushAvgMs: number;
}

/** The state before the first flush: no window (a first change goes out on the next turn), an idle loop. */
export const FIRST_PUSH_WINDOW: PushWindow = { windowMs: 0, busyAvg: 0, flushAvgMs: 0 };

/**
 * The window after a flush that took `flushMs`, the event loop having been busy `busy` of the time
 * (0..1: HTTP, acknowledgements and the push together) since the flush before it; both averaged by
 * `SMOOTHING`. The window is `WINDOW_PER_FLUSH` times the averaged flush, so it follows the cost of a
 * push (the screens and rows it writes) instead of a clock. While the averaged utilisation is over
 * `BUSY_LOOP` it grows by a fifth (at least `GROWTH_STEP_MS`) per flush, up to
 * `BOARD_PUSH_WINDOW_MAX_MS`, so the push yields to the API; after any interval busy less than that
 * it halves, back to its floor within a few flushes (which then follow each other quickly), so the
 * push recovers at once after a burst, also on a loop that stays busy.
 */
export function nextPushWindow(state: PushWindow, busy: number, flushMs: number): PushWindow {
  const busyAvg = state.busyAvg + SMOOTHING * (busy - state.busyAvg);
  const flushAvgMs = state.flushAvgMs + SMOOTHING * (flushMs - state.flushAvgMs);
  let windowMs = state.windowMs;
  if (busy < BUSY_LOOP) windowMs /= 2;
  else if (busyAvg > BUSY_LOOP) windowMs = Math.max(windowMs * 1.2, windowMs + GROWTH_STEP_MS);
  const floor = WINDOW_PER_FLUSH * flushAvgMs;
  return { windowMs: Math.min(BOARD_PUSH_WINDOW_MAX_MS, Math.max(floor, windowMs)), busyAvg, flushAvgMs };
}
