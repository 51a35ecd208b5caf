/**
 * The «new process?» watch (agent/src/new-process-watch.ts) on a pid source the test drives, with
 * fake timers: a new process scans at the next look, a thread does not, processes churning slow it
 * down, and it stops with no timer left.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CHURN_AFTER,
  CHURN_GAP_MS,
  NewProcessWatch,
  WATCH_EVERY_MS,
  procPidSource,
  type PidSource,
} from '../src/new-process-watch.js';

/** A machine: `last` is the last pid handed out; `processes` the live processes among them. */
function machine(): PidSource & { last: number; processes: Set<number>; start(): number; thread(): number } {
  const m = {
    last: 1000,
    processes: new Set<number>(),
    lastPid: () => m.last,
    isProcess: (pid: number) => m.processes.has(pid),
    start: () => {
      m.last += 1;
      m.processes.add(m.last);
      return m.last;
    },
    thread: () => (m.last += 1),
  };
  return m;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('NewProcessWatch', () => {
  it('scans at the next look after a new process, not after a thread nor while nothing starts', async () => {
    const m = machine();
    const scan = vi.fn(async () => false);
    const watch = new NewProcessWatch(scan, m);
    watch.start();
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS * 5);
    expect(scan).not.toHaveBeenCalled();
    m.thread();
    m.thread();
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS * 2);
    expect(scan).not.toHaveBeenCalled();
    m.start();
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS);
    expect(scan).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS * 3);
    expect(scan).toHaveBeenCalledTimes(1);
    await watch.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves a process the poll is about to scan to the poll', async () => {
    const m = machine();
    const scan = vi.fn(async () => false);
    const watch = new NewProcessWatch(scan, m);
    watch.start();
    m.start();
    watch.scanning();
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS * 3);
    expect(scan).not.toHaveBeenCalled();
    await watch.stop();
  });

  it('slows to one scan per CHURN_GAP_MS while processes churn and nothing is ended, and speeds up again', async () => {
    const m = machine();
    let found = false;
    const scan = vi.fn(async () => found);
    const watch = new NewProcessWatch(scan, m);
    watch.start();
    const churn = setInterval(() => m.start(), WATCH_EVERY_MS / 4);
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS * CHURN_AFTER + 1);
    expect(scan).toHaveBeenCalledTimes(CHURN_AFTER);
    // Churning: 2 s at most 2 s / CHURN_GAP_MS scans instead of 20.
    scan.mockClear();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(scan.mock.calls.length).toBeLessThanOrEqual(2_000 / CHURN_GAP_MS);
    expect(scan.mock.calls.length).toBeGreaterThanOrEqual(2_000 / CHURN_GAP_MS - 1);
    // A scan that ends something: every look scans again.
    found = true;
    await vi.advanceTimersByTimeAsync(CHURN_GAP_MS);
    scan.mockClear();
    await vi.advanceTimersByTimeAsync(WATCH_EVERY_MS * 10);
    expect(scan).toHaveBeenCalledTimes(10);
    clearInterval(churn);
    await watch.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('never runs two of its scans at once', async () => {
    const m = machine();
    let inFlight = 0;
    let most = 0;
    const scan = vi.fn(async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, WATCH_EVERY_MS * 3));
      inFlight -= 1;
      return true;
    });
    const watch = new NewProcessWatch(scan, m);
    watch.start();
    const churn = setInterval(() => m.start(), 10);
    await vi.advanceTimersByTimeAsync(2_000);
    clearInterval(churn);
    expect(scan.mock.calls.length).toBeGreaterThan(1);
    expect(most).toBe(1);
    await watch.stop();
  });
});

describe('procPidSource', () => {
  it("reads this machine's last pid and knows this process from a free pid", () => {
    const source = procPidSource();
    vi.useRealTimers();
    expect(source.lastPid()).toBeGreaterThan(0);
    expect(source.isProcess(process.pid)).toBe(true);
    expect(source.isProcess(0x3fffffff)).toBe(false);
  });
});
