import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { LOGIN_LIMITS, MESSAGES, loginAccountLockedMessage } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';
import type { RedisClient } from '../../realtime/redis-link.js';

/** Limits of {@link LoginLimiter}: failed logins allowed per address (a minute) and per account from one address (an hour). */
export interface LoginLimits {
  /** Failed logins per client address per minute, whatever the account (`LOGIN_RATE_LIMIT_MAX`). */
  perAddressMax: number;
  /** Failed logins per account from one client address per hour (`LOGIN_ACCOUNT_LIMIT_MAX`). */
  perAccountMax: number;
}

/**
 * Failed-login limits (after OWASP ASVS 2.2.1; the rule is stated in the README, «Configuración»),
 * with rate-limiter-flexible. Only failures count, and they hold back only the address that made them:
 * - per client address: at most `perAddressMax` failed logins a minute, whatever the accounts;
 * - per account *and* address: at most `perAccountMax` failed logins an hour for one username (ignoring
 *   case) from one address.
 * There is no count of an account's failures from every address: such a count lets anyone lock the
 * jury out by failing on purpose from a few machines, while with these two limits the right password
 * from an address that has not failed always signs in. A success clears that account's count for that
 * address (not the address's own count, which a valid account must not be able to wipe).
 *
 * The address is Fastify's `request.ip`: the TCP peer, or the client a proxy in `TRUST_PROXY` names.
 * With Redis (several server processes) the counts are shared by every process; while Redis is away
 * each process counts in memory (the insurance limiter) rather than letting everything through.
 */
export class LoginLimiter {
  private readonly perAddress: RateLimiterAbstract;
  private readonly perAccountAddress: RateLimiterAbstract;

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
    this.perAccountAddress = make(
      'login-user-ip',
      limits.perAccountMax,
      LOGIN_LIMITS.perAccountAddress.windowMs,
    );
  }

  /**
   * Refuses a login attempt from `address` for `username` before its password is checked.
   * @throws HttpError 429 `MESSAGES.loginRateLimited` when the address is over its limit, or
   *   `loginAccountLockedMessage(minutes)` (the wait, in whole minutes) when this account is over its
   *   limit from this address.
   */
  async check(address: string, username: string): Promise<void> {
    const [byAddress, byPair] = await Promise.all([
      this.perAddress.get(address),
      this.perAccountAddress.get(pairKey(address, username)),
    ]);
    if (byAddress && byAddress.consumedPoints >= this.perAddress.points) {
      throw new HttpError(429, MESSAGES.loginRateLimited);
    }
    if (byPair && byPair.consumedPoints >= this.perAccountAddress.points) {
      throw new HttpError(429, loginAccountLockedMessage(Math.ceil(byPair.msBeforeNext / 60_000)));
    }
  }

  /** Counts a failed login against the address and against the account from that address. */
  async failed(address: string, username: string): Promise<void> {
    // consume() rejects once over the limit: the count still went up, which is all we need here.
    await Promise.allSettled([
      this.perAddress.consume(address),
      this.perAccountAddress.consume(pairKey(address, username)),
    ]);
  }

  /** A successful login clears the account's count of failures from that address. */
  async succeeded(address: string, username: string): Promise<void> {
    await this.perAccountAddress.delete(pairKey(address, username)).catch(() => undefined);
  }
}

/**
 * The key of an (address, account) pair. Usernames compare ignoring case (utf8mb4_unicode_ci), so the
 * key does too; an address holds no space, so the first space ends it and no two pairs share a key.
 */
const pairKey = (address: string, username: string): string => `${address} ${username.trim().toLowerCase()}`;
