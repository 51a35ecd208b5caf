import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { EntityManager } from '@mikro-orm/mysql';
import type { SessionEndReason } from '@concurso/shared';
import { findSessionState, revokedJtis, sessionVersions } from './auth.repository.js';
import type { JwtClaims, SessionClaims, StaffSessions } from '../../plugins/access.js';

export type { SessionClaims } from '../../plugins/access.js';

/**
 * The claims a staff token must carry (docs/design.md section 4: a token whose `sub` is not a user
 * id, or without `exp`, is refused with 401, never a 500 and never "forever"). Signed by login.
 */
const claimsSchema = z.object({
  sub: z.string().regex(/^[1-9]\d{0,9}$/),
  typ: z.number().int().positive(),
  jti: z.string().min(8).max(64),
  ver: z.number().int().nonnegative(),
  exp: z.number().int().positive(),
  iat: z.number().int().optional(),
});

/**
 * Verifies a staff JWT's signature and expiry and checks its claims' shapes. Answers null for any
 * token that does not open a session (bad signature, expired, no `exp`, `sub` not an id...).
 * Used by the REST role guard and the socket handshake alike.
 */
function verifySessionToken(app: FastifyInstance, token: string): SessionClaims | null {
  let payload: unknown;
  try {
    payload = app.jwt.verify<JwtClaims>(token);
  } catch {
    return null;
  }
  const claims = claimsSchema.safeParse(payload);
  if (!claims.success) return null;
  return {
    userId: Number(claims.data.sub),
    jti: claims.data.jti,
    version: claims.data.ver,
    exp: claims.data.exp,
  };
}

/**
 * One round trip that says whether a token still opens a session: its user exists (a deleted user
 * loses every session), its session version is the user's current one (a changed password or role
 * ends older sessions) and its `jti` was not revoked by logout. Returns the user's current type, or
 * null when the session is over.
 */
export async function activeSessionType(em: EntityManager, session: SessionClaims): Promise<number | null> {
  const state = await findSessionState(em, session.userId, session.jti);
  if (!state || state.revoked || state.session_version !== session.version) return null;
  return state.type;
}

/**
 * Of the given open sessions, the ones that are over (user gone, version changed, token revoked),
 * with why. Two queries whatever the number of sessions: the periodic check of open sockets
 * (socket.ts) uses it so a session ended while another process could not be told still ends here.
 */
async function endedSessions(
  em: EntityManager,
  sessions: SessionClaims[],
): Promise<Map<string, SessionEndReason>> {
  const ended = new Map<string, SessionEndReason>();
  if (sessions.length === 0) return ended;
  const versions = await sessionVersions(em, [...new Set(sessions.map((s) => s.userId))]);
  const revoked = await revokedJtis(em, [...new Set(sessions.map((s) => s.jti))]);
  for (const session of sessions) {
    const version = versions.get(session.userId);
    if (version === undefined) ended.set(session.jti, 'deleted');
    else if (revoked.has(session.jti)) ended.set(session.jti, 'logout');
    else if (version !== session.version) ended.set(session.jti, 'password');
  }
  return ended;
}

/**
 * The staff sessions as the role guard and the socket handshake use them (`StaffSessions`, declared by
 * plugins/access.ts): `verifySessionToken`, then `activeSessionType`, and `endedSessions` for the
 * socket's sweep, each on a fork of `app.orm.em`. Built once by app.ts, after `@fastify/jwt`.
 */
export function staffSessions(app: FastifyInstance): StaffSessions {
  return {
    async open(token) {
      const session = verifySessionToken(app, token);
      if (!session) return null;
      const type = await activeSessionType(app.orm.em.fork(), session);
      return type === null ? null : { session, type };
    },
    ended: (sessions) => endedSessions(app.orm.em.fork(), sessions),
  };
}
