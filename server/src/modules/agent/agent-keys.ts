import { createHash, randomBytes } from 'node:crypto';
import { MESSAGES } from '@concurso/shared';
import type { AgentPrincipal } from '../../plugins/access.js';
import { HttpError } from '../../lib/http-error.js';
import { teamByAgentKeyHash } from '../teams/index.js';
import type { SqlRunner } from '../../db/sql.js';
import { WrongKeyLimiter } from './wrong-key-limiter.js';

/** SHA-256 hex digest of an agent key: what `teams.agent_key_hash` stores. */
export function hashAgentKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A new agent key: `ag_` and 256 random bits, base64url (docs/design.md section 6). */
export function newAgentKey(): string {
  return `ag_${randomBytes(32).toString('base64url')}`;
}

/**
 * The team whose current key is `key`, or null (wrong, revoked or regenerated key); read with `sql` (the
 * agents' bare pool, `poolSql(app.sql)`).
 */
async function teamByAgentKey(sql: SqlRunner, key: string): Promise<AgentPrincipal | null> {
  if (!key.startsWith('ag_') || key.length > 100) return null;
  return teamByAgentKeyHash(sql, hashAgentKey(key));
}

/** How long a key → team lookup is trusted without asking the database again, in ms. */
const AGENT_KEY_CACHE_MS = 5_000;
/** Most keys remembered at once (one per lab machine; far above any contest). */
const AGENT_KEY_CACHE_MAX = 20_000;

/**
 * Remembers which team each agent key belongs to for `AGENT_KEY_CACHE_MS`, so the attempts and
 * heartbeat hot path skips a SHA-256 and a database round trip per request (BENCHMARKS.md). Only
 * found keys are remembered. `clear()` forgets everything; it runs when a key is regenerated, in every
 * server process (socket.ts relays it), so an old key stops working at once. A team deleted or moved
 * meanwhile is caught where it matters: the attempts transaction answers 401 for a team that is gone.
 * Wrong keys are counted per client address (`WrongKeyLimiter`): past the limit that address's keys
 * are not looked up any more for a minute (429), unless the key is one this cache holds as right.
 */
export class AgentKeyCache {
  private readonly entries = new Map<string, { team: AgentPrincipal; until: number }>();

  /**
   * @param sql what keys are read with: the agents' bare pool, `poolSql(app.sql)`.
   * @param ttlMs how long a found key is trusted (ms).
   * @param wrongKeys the wrong keys counted per address.
   */
  constructor(
    private readonly sql: SqlRunner,
    private readonly ttlMs = AGENT_KEY_CACHE_MS,
    private readonly wrongKeys = new WrongKeyLimiter(),
  ) {}

  /**
   * The team whose current key is `key` (cached or read from the database), or null.
   * @param address the client address it came from (`request.ip`, the handshake's), whose wrong keys
   *   are counted; without it nothing is counted (the server's own calls).
   * @throws HttpError 429 `MESSAGES.agentKeysRateLimited` with `retryAfterS` when `address` sent too
   *   many wrong keys and `key` is not a cached right one.
   */
  async team(key: string, address?: string): Promise<AgentPrincipal | null> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.team;
    if (address !== undefined) {
      const wait = await this.wrongKeys.wait(address);
      if (wait > 0) throw new HttpError(429, MESSAGES.agentKeysRateLimited, undefined, wait);
    }
    const team = await teamByAgentKey(this.sql, key);
    if (hit) this.entries.delete(key);
    if (team) {
      if (this.entries.size >= AGENT_KEY_CACHE_MAX) this.entries.clear();
      this.entries.set(key, { team, until: now + this.ttlMs });
    } else if (address !== undefined) {
      await this.wrongKeys.failed(address);
    }
    return team;
  }

  /** Forgets every key (one was regenerated or revoked). */
  clear(): void {
    this.entries.clear();
  }
}
