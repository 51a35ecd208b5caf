import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { RedisClient } from './redis-link.js';

/** The window of a `PerMinuteLimiter` (ms). */
const WINDOW_MS = 60_000;

/**
 * At most `perMinute` events per key (a team's agent key) per minute, with rate-limiter-flexible: with
 * Redis every server process shares the count (keys `concurso:<keyPrefix>:<key>`); while Redis is away
 * each process counts in memory (the insurance limiter) rather than letting everything through. Used for
 * what one stolen key may send (docs/design.md section 6a "Bounds on what one key may send"): the
 * observed reports and the screen captures.
 */
export class PerMinuteLimiter {
  private readonly limiter: RateLimiterAbstract;

  /**
   * @param keyPrefix names the count (e.g. `observed-team`, `capture-key`).
   * @param perMinute events one key may make in a minute.
   */
  constructor(keyPrefix: string, perMinute: number, redis?: RedisClient) {
    const options = { keyPrefix, points: perMinute, duration: WINDOW_MS / 1000 };
    const memory = new RateLimiterMemory(options);
    this.limiter = redis
      ? new RateLimiterRedis({
          ...options,
          keyPrefix: `concurso:${keyPrefix}`,
          storeClient: redis,
          useRedisPackage: true,
          insuranceLimiter: memory,
        })
      : memory;
  }

  /**
   * Counts one event of `key`: null when it is within the rate, else how long until it may make
   * another (ms). @throws what the store throws when neither Redis nor memory can answer.
   */
  async take(key: number | string): Promise<number | null> {
    try {
      await this.limiter.consume(String(key));
      return null;
    } catch (refused) {
      if (refused instanceof RateLimiterRes) return Math.max(1, refused.msBeforeNext);
      throw refused;
    }
  }
}
