import type { EntityManager } from '@mikro-orm/mysql';
import { raw } from '@mikro-orm/core';
import { User } from '../users/index.js';
import { RevokedToken } from './revoked-token.entity.js';

/**
 * The only place that reads what a session depends on (the user's type and `session_version`, the
 * revoked tokens) and writes `revoked_tokens` (docs/design.md section 4). Reads users through their
 * entity; the rules that decide whether a session is over live in session.ts.
 */

/** A user as login sees them: the stored hash, the type and the session version. */
export function findUserByUsername(em: EntityManager, username: string) {
  return em.findOne(User, { username });
}

/** A user as `auth/me` answers them; `NotFoundError` (404) when they are gone. */
export function getUser(em: EntityManager, id: number) {
  return em.findOneOrFail(User, id);
}

/** What one session's check needs, read in one round trip (the guard asks on every request). */
export interface SessionState {
  type: number;
  session_version: number;
  /** 1 when the token's `jti` was revoked, else null. */
  revoked: 1 | null;
}

/** The user's type and session version and whether `jti` is revoked, in one query; null when the user is gone. */
export async function findSessionState(
  em: EntityManager,
  userId: number,
  jti: string,
): Promise<SessionState | null> {
  const revoked = em.createQueryBuilder(RevokedToken, 'r').select(raw('1')).where({ jti });
  const state = await em
    .createQueryBuilder(User, 'u')
    .select(['u.type', 'u.session_version'])
    .addSelect(revoked.as('revoked'))
    .where({ id: userId })
    .execute<SessionState | undefined>('get');
  return state ?? null;
}

/** The current `session_version` of each of `userIds` that still exists. */
export async function sessionVersions(
  em: EntityManager,
  userIds: readonly number[],
): Promise<Map<number, number>> {
  const users = await em.find(User, { id: { $in: [...userIds] } }, { fields: ['session_version'] });
  return new Map(users.map((user) => [user.id, user.session_version]));
}

/** Which of `jtis` were revoked by logout. */
export async function revokedJtis(em: EntityManager, jtis: readonly string[]): Promise<Set<string>> {
  const revoked = await em.find(RevokedToken, { jti: { $in: [...jtis] } });
  return new Set(revoked.map((token) => token.jti));
}

/**
 * Revokes a token for good (docs/design.md section 4): its `jti` is kept until `expSeconds`, after which
 * the token is dead anyway. Also forgets revocations that have expired, so the table stays small.
 */
export async function revokeToken(em: EntityManager, jti: string, expSeconds: number): Promise<void> {
  await em
    .createQueryBuilder(RevokedToken)
    .insert({ jti, expiresAt: new Date(expSeconds * 1000) })
    .onConflict()
    .ignore();
  await em.nativeDelete(RevokedToken, { expiresAt: { $lt: new Date() } });
}
