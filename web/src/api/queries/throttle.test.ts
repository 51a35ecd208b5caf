import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttle } from './throttle';

describe('throttle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at once, then gathers the requests of the next 2 s into one run at its end', () => {
    const run = vi.fn();
    const refetch = throttle(run, 2_000);
    refetch.request();
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(500);
    refetch.request();
    refetch.request();
    vi.advanceTimersByTime(1_000);
    refetch.request();
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(499);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(2);
    // Quiet for longer than the interval: the next request runs at once again.
    vi.advanceTimersByTime(5_000);
    expect(run).toHaveBeenCalledTimes(2);
    refetch.request();
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('drops a pending run when cancelled', () => {
    const run = vi.fn();
    const refetch = throttle(run, 2_000);
    refetch.request();
    refetch.request();
    refetch.cancel();
    vi.advanceTimersByTime(10_000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
