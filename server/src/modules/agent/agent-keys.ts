import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/mysql';
import type { AgentPrincipal } from '../../plugins/access.js';

/** SHA-256 hex digest of an agent key: what `teams.agent_key_hash` stores. */
export function hashAgentKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A new agent key: `ag_` and 256 random bits, base64url (DESIGN.md section 6). */
export function newAgentKey(): string {
  return `ag_${randomBytes(32).toString('base64url')}`;
}

/** The team whose current key is `key`, or null (wrong, revoked or regenerated key). */
export async function teamByAgentKey(em: EntityManager, key: string): Promise<AgentPrincipal | null> {
  if (!key.startsWith('ag_') || key.length > 100) return null;
  const rows = await em.execute<Array<{ id: number; levels_id: number; contests_id: number }>>(
    'select id, levels_id, contests_id from teams where agent_key_hash = ?',
    [hashAgentKey(key)],
  );
  const row = rows[0];
  return row
    ? { id: Number(row.id), levels_id: Number(row.levels_id), contests_id: Number(row.contests_id) }
    : null;
}
