import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { RedisClient } from '../../realtime/redis-link.js';

/** The window of the per-key rate of captures (ms). */
const WINDOW_MS = 60_000;

/**
 * Captures per agent key (team) per minute (`CAPTURE_LIMITS.perMinute`: a stolen key may not fill the
 * disk nor keep the image decoder busy), with rate-limiter-flexible as the observed reports do: with
 * Redis every server process shares the count; while Redis is away each counts in memory.
 */
export class CaptureRateLimiter {
  private readonly limiter: RateLimiterAbstract;

  /** `perMinute`: captures one key may upload in a minute. */
  constructor(perMinute: number, redis?: RedisClient) {
    const options = { keyPrefix: 'capture-key', points: perMinute, duration: WINDOW_MS / 1000 };
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
   * Counts one upload of team `teamId`'s key: null when it is within the rate, else how long until
   * it may upload again (ms).
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
