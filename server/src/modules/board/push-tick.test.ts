import { describe, expect, it } from 'vitest';
import { BOARD_PUSH_WINDOW_MAX_MS } from '@concurso/shared';
import { FIRST_PUSH_WINDOW, nextPushWindow, type PushWindow } from './push-tick.js';

/** Runs flushes of (utilisation, flush ms) from `state`, answering the window after each. */
function run(state: PushWindow, flushes: Array<[number, number]>): { state: PushWindow; windows: number[] } {
  const windows: number[] = [];
  for (const [busy, flushMs] of flushes) {
    state = nextPushWindow(state, busy, flushMs);
    windows.push(state.windowMs);
  }
  return { state, windows };
}

const times = <T>(n: number, value: T): T[] => Array.from({ length: n }, () => value);

describe('the push window', () => {
  it('starts with no window: the first change goes out on the next turn', () => {
    expect(FIRST_PUSH_WINDOW.windowMs).toBe(0);
  });

  it('has no fixed floor: twice the flush on a board whose flushes are short', () => {
    // 500 screens: a flush of about 3 ms, the loop busy 60 % between flushes.
    const { windows } = run(FIRST_PUSH_WINDOW, times(60, [0.6, 3]));
    expect(windows.at(-1)).toBeCloseTo(6, 1);
    expect(Math.max(...windows)).toBeLessThanOrEqual(6);
  });

  it('is twice the averaged flush on a loop busy 70 % with 17 ms flushes', () => {
    const { windows } = run(FIRST_PUSH_WINDOW, times(60, [0.7, 17]));
    expect(windows.at(-1)).toBeCloseTo(34, 1);
  });

  it('grows to the ceiling while the loop stays saturated, so the API is served first', () => {
    const { windows } = run(FIRST_PUSH_WINDOW, times(60, [1, 3]));
    expect(windows.at(-1)).toBe(BOARD_PUSH_WINDOW_MAX_MS);
    // From a window of a few ms too: it grows by at least a step per flush, not only by a fraction.
    expect(windows.slice(1).every((w, i) => w > windows[i]! || w === BOARD_PUSH_WINDOW_MAX_MS)).toBe(true);
  });

  it('does not grow for one saturated interval, nor double for one slow flush', () => {
    const steady = run(FIRST_PUSH_WINDOW, times(60, [0.7, 17])).state;
    const { windows } = run(steady, [
      [1, 95] as [number, number],
      ...times(30, [0.7, 17] as [number, number]),
    ]);
    // Reacting to that one flush alone made the next window 190 ms (twice the slow flush).
    expect(Math.max(...windows)).toBeLessThan(2 * 34);
    expect(windows.at(-1)).toBeLessThan(34 * 1.05);
  });

  it('comes back from the ceiling within a few quiet flushes after a burst, in less than the ceiling', () => {
    const burst = run(FIRST_PUSH_WINDOW, times(60, [1, 3])).state;
    const { windows } = run(burst, times(10, [0.6, 3]));
    const back = windows.findIndex((w) => w < 8);
    expect(back).toBeGreaterThanOrEqual(0);
    expect(back).toBeLessThanOrEqual(7);
    // The windows on the way down add up to less than one ceiling: the push recovers at once.
    const wait = windows.slice(0, back + 1).reduce((sum, w) => sum + w, 0);
    expect(wait).toBeLessThan(BOARD_PUSH_WINDOW_MAX_MS);
  });

  it('comes back from the ceiling on a loop that stays busy but not saturated (86-92 %)', () => {
    // 500 screens connecting saturate the loop; then 2,000 attempts a second keep it 86-92 % busy.
    const ramp = run(FIRST_PUSH_WINDOW, times(60, [1, 5])).state;
    expect(ramp.windowMs).toBe(BOARD_PUSH_WINDOW_MAX_MS);
    const { windows } = run(
      ramp,
      Array.from({ length: 12 }, (_, i) => [i % 2 === 0 ? 0.86 : 0.92, 5] as [number, number]),
    );
    // Before, a band of utilisation (0.85..0.95) kept the window at the ceiling for as long as it lasted.
    const back = windows.findIndex((w) => w <= 2 * 5 * 1.05);
    expect(back).toBeGreaterThanOrEqual(0);
    expect(back).toBeLessThanOrEqual(7);
    expect(windows.slice(0, back + 1).reduce((sum, w) => sum + w, 0)).toBeLessThan(BOARD_PUSH_WINDOW_MAX_MS);
  });

  it('never waits under twice the flushes it keeps taking: pushing takes at most a third of the loop', () => {
    const { windows } = run(FIRST_PUSH_WINDOW, times(60, [0.5, 60]));
    expect(windows.at(-1)).toBeGreaterThanOrEqual(2 * 60 * 0.99);
    expect(windows.at(-1)).toBeLessThanOrEqual(BOARD_PUSH_WINDOW_MAX_MS);
  });
});
