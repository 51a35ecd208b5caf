import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { RedisClient } from '../../realtime/redis-link.js';

/** The window of the per-team rate of observed reports (ms). */
const WINDOW_MS = 60_000;

/**
 * Observed reports per team per minute (docs/design.md section 6a: one stolen key may not grow
 * the inventory without bound), with rate-limiter-flexible as the login limits do: with Redis
 * (several server processes) every process shares the count; while Redis is away each counts in
 * memory (the insurance limiter) rather than letting everything through.
 */
export class ObservedRateLimiter {
  private readonly limiter: RateLimiterAbstract;

  /** `perMinute`: reports one team may send in a minute (`OBSERVED_LIMITS.reportsPerMinute`). */
  constructor(perMinute: number, redis?: RedisClient) {
    const options = { keyPrefix: 'observed-team', points: perMinute, duration: WINDOW_MS / 1000 };
    const memory = new RateLimiterMemory(options);
    this.limiter = redis
      ? new RateLimiterRedis({
          ...options,
          keyPrefix: `concurso:${options.keyPrefix}`,
          storeClient: redis,
          useRedisPackage: true,
          insuranceLimiter: memory,
        })
      : memory;
  }

  /**
   * Counts one report of team `teamId`: null when it is within the rate, else how long until the
   * team may report again (ms).
   */
  async take(teamId: number): Promise<number | null> {
    try {
      await this.limiter.consume(String(teamId));
      return null;
    } catch (refused) {
      if (refused instanceof RateLimiterRes) return Math.max(1, refused.msBeforeNext);
      throw refused;
    }
  }
}
