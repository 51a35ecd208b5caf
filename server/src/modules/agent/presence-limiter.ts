import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { AGENT_PRESENCE_LIMITS, LAB_MACHINE_LIMITS } from '@concurso/shared';
import type { RedisClient } from '../../realtime/redis-link.js';

/** The presence calls an agent makes (`POST /api/agent/heartbeat`, `POST /api/agent/stopped`). */
export type PresenceCall = 'heartbeat' | 'stopped';

/**
 * Heartbeats and stop notices per key and machine (docs/design.md section 6a: a flapping or stolen key
 * leaves bounded traces; `AGENT_PRESENCE_LIMITS`), with rate-limiter-flexible as the login limits
 * do: with Redis (several server processes) every process shares the counts; while Redis is away each
 * counts in memory (the insurance limiter) rather than letting everything through. The key's count
 * (`LAB_MACHINE_LIMITS.maxRowsPerTeam` machines' worth) is taken first, so the per-machine counts a
 * key can create (one per host name it invents) are bounded too.
 */
export class PresenceLimiter {
  private readonly limiters: Record<PresenceCall, { key: RateLimiterAbstract; machine: RateLimiterAbstract }>;

  /** `periodMs`: the presence period (`presencePeriodMs`: whole seconds, at least 1). */
  constructor(periodMs: number, redis?: RedisClient) {
    const duration = Math.max(1, Math.round(periodMs / 1000));
    const make = (keyPrefix: string, points: number): RateLimiterAbstract => {
      const options = { keyPrefix, points, duration };
      const memory = new RateLimiterMemory(options);
      return redis
        ? new RateLimiterRedis({
            ...options,
            keyPrefix: `concurso:${keyPrefix}`,
            storeClient: redis,
            useRedisPackage: true,
            insuranceLimiter: memory,
          })
        : memory;
    };
    const pair = (call: PresenceCall, perMachine: number) => ({
      key: make(`agent-${call}-key`, perMachine * LAB_MACHINE_LIMITS.maxRowsPerTeam),
      machine: make(`agent-${call}-machine`, perMachine),
    });
    this.limiters = {
      heartbeat: pair('heartbeat', AGENT_PRESENCE_LIMITS.heartbeatsPerPeriod),
      stopped: pair('stopped', AGENT_PRESENCE_LIMITS.stopsPerPeriod),
    };
  }

  /**
   * Counts one `call` of team `teamId`'s key from machine `hostname` (empty: an agent that names none):
   * null when within the limits, else how long until it may call again (ms).
   */
  async take(call: PresenceCall, teamId: number, hostname: string): Promise<number | null> {
    const { key, machine } = this.limiters[call];
    try {
      await key.consume(String(teamId));
      await machine.consume(`${teamId}:${hostname}`);
      return null;
    } catch (refused) {
      if (refused instanceof RateLimiterRes) return Math.max(1, refused.msBeforeNext);
      throw refused;
    }
  }
}
