import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { LOGIN_LIMITS, MESSAGES, loginAccountLockedMessage } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';
import type { RedisClient } from '../../realtime/redis-link.js';

/** Limits of {@link LoginLimiter}: failed logins allowed per address (a minute) and per account (an hour). */
export interface LoginLimits {
  perAddressMax: number;
  perAccountMax: number;
}

/**
 * Failed-login limits (issue 10, after OWASP ASVS 2.2.1), with rate-limiter-flexible: at most
 * `perAddressMax` failed logins per client address per minute and `perAccountMax` per account
 * (username, ignoring case) per hour. Only failures count, so a judge who types the password right
 * is never held back by an attacker hammering another account from elsewhere; a success clears the
 * account's count. With Redis (several server processes) the counts are shared by every process;
 * while Redis is away each process counts in memory (the insurance limiter) rather than letting
 * everything through.
 */
export class LoginLimiter {
  private readonly perAddress: RateLimiterAbstract;
  private readonly perAccount: RateLimiterAbstract;

  constructor(limits: LoginLimits, redis?: RedisClient) {
    const make = (keyPrefix: string, points: number, windowMs: number): RateLimiterAbstract => {
      const duration = windowMs / 1000;
      const memory = new RateLimiterMemory({ keyPrefix, points, duration });
      if (!redis) return memory;
      return new RateLimiterRedis({
        storeClient: redis,
        useRedisPackage: true,
        keyPrefix: `concurso:${keyPrefix}`,
        points,
        duration,
        insuranceLimiter: memory,
      });
    };
    this.perAddress = make('login-ip', limits.perAddressMax, LOGIN_LIMITS.perAddress.windowMs);
    this.perAccount = make('login-user', limits.perAccountMax, LOGIN_LIMITS.perAccount.windowMs);
  }

  /**
   * Refuses a login attempt from `address` for `username` before its password is checked.
   * @throws HttpError 429 with a Spanish message (and the wait, in minutes, for an account).
   */
  async check(address: string, username: string): Promise<void> {
    const [byAddress, byAccount] = await Promise.all([
      this.perAddress.get(address),
      this.perAccount.get(accountKey(username)),
    ]);
    if (byAddress && byAddress.consumedPoints >= this.perAddress.points) {
      throw new HttpError(429, MESSAGES.loginRateLimited);
    }
    if (byAccount && byAccount.consumedPoints >= this.perAccount.points) {
      throw new HttpError(429, loginAccountLockedMessage(Math.ceil(byAccount.msBeforeNext / 60_000)));
    }
  }

  /** Counts a failed login against both the address and the account. */
  async failed(address: string, username: string): Promise<void> {
    // consume() rejects once over the limit: the count still went up, which is all we need here.
    await Promise.allSettled([
      this.perAddress.consume(address),
      this.perAccount.consume(accountKey(username)),
    ]);
  }

  /** A successful login clears the account's count of failures. */
  async succeeded(username: string): Promise<void> {
    await this.perAccount.delete(accountKey(username)).catch(() => undefined);
  }
}

/** Usernames compare ignoring case (utf8mb4_unicode_ci), so the account's key does too. */
const accountKey = (username: string): string => username.trim().toLowerCase();
