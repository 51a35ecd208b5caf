import { describe, expect, it } from 'vitest';
import { Backoff } from '../src/backoff.js';

describe('Backoff', () => {
  it('doubles from 1 s up to a 30 s cap, and starts over after a success', () => {
    const backoff = new Backoff({ random: () => 0 });
    const delays = Array.from({ length: 8 }, () => backoff.fail());
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    backoff.succeed();
    expect(backoff.fail()).toBe(1_000);
  });

  it('takes up to the jitter fraction off a delay', () => {
    const backoff = new Backoff({ random: () => 0.5, jitter: 0.2 });
    expect(backoff.fail()).toBe(900);
  });

  it('is due again only once the delay has passed', () => {
    let now = 10_000;
    const backoff = new Backoff({ random: () => 0, now: () => now });
    expect(backoff.due).toBe(true);
    backoff.fail();
    expect(backoff.due).toBe(false);
    now += 1_000;
    expect(backoff.due).toBe(true);
  });

  it('waits at least what the server asked for, and its own delay when that is longer', () => {
    const backoff = new Backoff({ random: () => 0 });
    expect(backoff.failAtLeast(5_000)).toBe(5_000);
    expect(backoff.failAtLeast(100)).toBe(2_000);
    expect(backoff.failureCount).toBe(2);
  });
});
