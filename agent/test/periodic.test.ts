/**
 * The agent's loops (agent/src/periodic.ts) with fake timers: by default the next run comes the delay
 * after the last one started, with `fromEnd` the delay after it ended; a delay of null ends that loop
 * alone; `stop()` leaves no timer and answers the run in progress.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Periodic } from '../src/periodic.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A task that takes `ms` and notes when each run started (fake ms since the test began). */
function slowTask(ms: number) {
  const begun = Date.now();
  const starts: number[] = [];
  const task = async () => {
    starts.push(Date.now() - begun);
    await new Promise((resolve) => setTimeout(resolve, ms));
  };
  return { task, starts };
}

/** Stops `loops` and lets the runs in progress end (their own timers are fake too). */
async function stopped(loops: Periodic): Promise<void> {
  const running = loops.stop();
  await vi.advanceTimersByTimeAsync(1_000);
  await Promise.all(running);
  expect(vi.getTimerCount()).toBe(0);
}

describe('Periodic', () => {
  it('counts the delay from the start of a run, or with fromEnd from its end', async () => {
    const loops = new Periodic(() => undefined);
    const fromStart = slowTask(30);
    const fromEnd = slowTask(30);
    loops.every(fromStart.task, () => 100, 0);
    loops.every(fromEnd.task, () => 100, 0, { fromEnd: true });
    await vi.advanceTimersByTimeAsync(400);
    expect(fromStart.starts).toEqual([0, 100, 200, 300, 400]);
    expect(fromEnd.starts).toEqual([0, 130, 260, 390]);
    await stopped(loops);
  });

  it('ends one loop when its delay is null, the others going on', async () => {
    const loops = new Periodic(() => undefined);
    let runs = 0;
    const other = slowTask(0);
    loops.every(
      async () => {
        runs += 1;
      },
      () => (runs < 3 ? 40 : null),
      40,
      { fromEnd: true },
    );
    loops.every(other.task, () => 100, 100);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(3);
    expect(other.starts).toHaveLength(10);
    // Started again by another `every`.
    loops.every(
      async () => {
        runs += 1;
      },
      () => null,
      0,
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(4);
    await stopped(loops);
  });

  it('hands a failure to onError and goes on; stop() answers the run in progress', async () => {
    const errors: unknown[] = [];
    const loops = new Periodic((error) => errors.push(error));
    let runs = 0;
    loops.every(
      async () => {
        runs += 1;
        if (runs === 1) throw new Error('falla');
        await new Promise((resolve) => setTimeout(resolve, 500));
      },
      () => 100,
      0,
    );
    await vi.advanceTimersByTimeAsync(150);
    expect(errors).toEqual([new Error('falla')]);
    expect(runs).toBe(2);
    const running = loops.stop();
    expect(running).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(500);
    await Promise.all(running);
    expect(vi.getTimerCount()).toBe(0);
    expect(runs).toBe(2);
  });
});
