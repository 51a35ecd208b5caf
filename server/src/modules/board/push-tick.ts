import { BOARD_PUSH_WINDOW_MAX_MS, BOARD_PUSH_WINDOW_MS } from '@concurso/shared';

/** Event-loop utilisation above which the push tick grows, and below which it shrinks (0..1). */
const BUSY_LOOP = 0.95;
const IDLE_LOOP = 0.85;

/**
 * Weight of the last tick in the averaged utilisation and flush time (an exponential average over about five
 * ticks). Measured (bench/BENCHMARKS.md, "The push tick"): reacting to one tick alone, a single slow flush (a
 * garbage collection, the core lent to MariaDB) doubled the following ticks, and one busy tick grew the tick
 * for good; that was most of the push's p99.
 */
const SMOOTHING = 0.2;

/** The push tick's state (board-publisher.ts), carried from one tick to the next. */
export interface PushTick {
  /** The tick now in force (ms), between `BOARD_PUSH_WINDOW_MS` and `BOARD_PUSH_WINDOW_MAX_MS`. */
  tickMs: number;
  /** Averaged event-loop utilisation per tick (0..1). */
  busyAvg: number;
  /** Averaged flush duration (ms). */
  flushAvgMs: number;
}

/** The state before the first tick: the shortest tick, an idle loop. */
export const FIRST_PUSH_TICK: PushTick = { tickMs: BOARD_PUSH_WINDOW_MS, busyAvg: 0, flushAvgMs: 0 };

/**
 * The next tick after one whose event loop was busy `busy` of the time (0..1: HTTP, acknowledgements and
 * the push together) and whose flush took `flushMs` (smoothed by `SMOOTHING`). While the averaged
 * utilisation is over `BUSY_LOOP` the tick grows by a fifth, up to `BOARD_PUSH_WINDOW_MAX_MS`, so the
 * push yields to the API; after a tick busy less than `IDLE_LOOP` it shrinks by a third, back towards
 * `BOARD_PUSH_WINDOW_MS` within four ticks from the ceiling (so the push recovers at once after a
 * burst). Never under twice the averaged flush: pushing takes at most a third of the loop.
 */
export function nextPushTick(state: PushTick, busy: number, flushMs: number): PushTick {
  const busyAvg = state.busyAvg + SMOOTHING * (busy - state.busyAvg);
  const flushAvgMs = state.flushAvgMs + SMOOTHING * (flushMs - state.flushAvgMs);
  let tickMs = state.tickMs;
  if (busyAvg > BUSY_LOOP) tickMs *= 1.2;
  else if (busy < IDLE_LOOP) tickMs /= 1.5;
  const floor = Math.max(BOARD_PUSH_WINDOW_MS, 2 * flushAvgMs);
  return { tickMs: Math.min(BOARD_PUSH_WINDOW_MAX_MS, Math.max(floor, tickMs)), busyAvg, flushAvgMs };
}
