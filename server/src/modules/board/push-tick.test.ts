import { describe, expect, it } from 'vitest';
import { BOARD_PUSH_WINDOW_MAX_MS, BOARD_PUSH_WINDOW_MS } from '@concurso/shared';
import { FIRST_PUSH_TICK, nextPushTick, type PushTick } from './push-tick.js';

/** Runs `ticks` ticks of (utilisation, flush ms) from `state`, answering every tick's length. */
function run(state: PushTick, ticks: Array<[number, number]>): { state: PushTick; lengths: number[] } {
  const lengths: number[] = [];
  for (const [busy, flushMs] of ticks) {
    state = nextPushTick(state, busy, flushMs);
    lengths.push(state.tickMs);
  }
  return { state, lengths };
}

const times = <T>(n: number, value: T): T[] => Array.from({ length: n }, () => value);

describe('the push tick', () => {
  it('stays at the shortest tick on a loop busy 70 % with 17 ms flushes', () => {
    const { lengths } = run(FIRST_PUSH_TICK, times(50, [0.7, 17]));
    expect(Math.max(...lengths)).toBe(BOARD_PUSH_WINDOW_MS);
  });

  it('grows to the ceiling while the loop stays saturated, so the API is served first', () => {
    const { lengths } = run(FIRST_PUSH_TICK, times(40, [1, 17]));
    expect(lengths.at(-1)).toBe(BOARD_PUSH_WINDOW_MAX_MS);
  });

  it('does not grow for one saturated tick, nor double for one slow flush', () => {
    const steady = run(FIRST_PUSH_TICK, times(20, [0.7, 17])).state;
    const { lengths } = run(steady, [
      [1, 95] as [number, number],
      ...times(5, [0.7, 17] as [number, number]),
    ]);
    // Reacting to that one tick alone made the next tick 190 ms (twice the slow flush).
    expect(Math.max(...lengths)).toBeLessThan(2 * BOARD_PUSH_WINDOW_MS);
    expect(lengths.at(-1)).toBe(BOARD_PUSH_WINDOW_MS);
  });

  it('comes back from the ceiling within four quiet ticks after a burst', () => {
    const burst = run(FIRST_PUSH_TICK, times(40, [1, 17])).state;
    const { lengths } = run(burst, times(4, [0.6, 17]));
    expect(lengths.at(-1)).toBe(BOARD_PUSH_WINDOW_MS);
  });

  it('never ticks under twice the flushes it keeps taking: pushing takes at most a third of the loop', () => {
    const { lengths } = run(FIRST_PUSH_TICK, times(40, [0.5, 60]));
    expect(lengths.at(-1)).toBeGreaterThanOrEqual(2 * 60 * 0.99);
    expect(lengths.at(-1)).toBeLessThanOrEqual(BOARD_PUSH_WINDOW_MAX_MS);
  });
});
