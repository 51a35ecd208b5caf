import { RateLimiterMemory } from 'rate-limiter-flexible';
import { AGENT_CHANNEL_LIMITS } from '@concurso/shared';

/** How long an address that sent too many wrong agent keys waits, in s (the limiter's window). */
const WRONG_KEYS_WINDOW_S = 60;

/**
 * Wrong agent keys per client address (docs/design.md section 6a: a key lookup costs a SHA-256 and a
 * database round trip, so random keys must not cost the server without bound), with
 * rate-limiter-flexible in this process's memory: at most `perMinute` wrong keys (default
 * `AGENT_CHANNEL_LIMITS.wrongKeysPerMinute`) per address in `WRONG_KEYS_WINDOW_S`. Only wrong keys
 * count, so a lab behind one NAT address whose agents hold their right keys is never held back by
 * one machine with a revoked key beyond what it sends itself; a key already cached as right passes
 * before the address is looked at (agent-keys.ts).
 */
export class WrongKeyLimiter {
  private readonly limiter: RateLimiterMemory;

  constructor(perMinute: number = AGENT_CHANNEL_LIMITS.wrongKeysPerMinute) {
    this.limiter = new RateLimiterMemory({
      keyPrefix: 'agent-wrong-key',
      points: perMinute,
      duration: WRONG_KEYS_WINDOW_S,
    });
  }

  /** Seconds `address` must still wait before its next key is looked up, or 0 when it may try now. */
  async wait(address: string): Promise<number> {
    const state = await this.limiter.get(address);
    if (!state || state.consumedPoints < this.limiter.points) return 0;
    return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  }

  /** Counts one wrong key from `address`. */
  async failed(address: string): Promise<void> {
    // consume() rejects once over the limit: the count still went up, which is all we need here.
    await this.limiter.consume(address).catch(() => undefined);
  }
}
