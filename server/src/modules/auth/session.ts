import type { EntityManager } from '@mikro-orm/mysql';
import { RevokedToken } from '../../db/entities/index.js';

/**
 * One round trip that says whether a token still opens a session: its user exists (a deleted user
 * loses every session) and its `jti` was not revoked by logout. Returns the user's current type, or
 * null when the session is over. Used by the REST role guard and the socket handshake alike.
 */
export async function activeSessionType(
  em: EntityManager,
  userId: number,
  jti: string,
): Promise<number | null> {
  const rows = await em.execute<Array<{ types_users_id: number; revoked: number | null }>>(
    'select u.types_users_id, (select 1 from revoked_tokens r where r.jti = ?) as revoked from users u where u.id = ?',
    [jti, userId],
  );
  const row = rows[0];
  if (!row || row.revoked) return null;
  return Number(row.types_users_id);
}

/**
 * Revokes a token for good (DESIGN.md section 4): its `jti` is kept until `expSeconds`, after which
 * the token is dead anyway. Also forgets revocations that have expired, so the table stays small.
 */
export async function revokeToken(em: EntityManager, jti: string, expSeconds: number): Promise<void> {
  await em.execute('insert ignore into revoked_tokens (jti, expires_at) values (?, ?)', [
    jti,
    new Date(expSeconds * 1000),
  ]);
  await em.nativeDelete(RevokedToken, { expiresAt: { $lt: new Date() } });
}
