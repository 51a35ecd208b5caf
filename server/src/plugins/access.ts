import type { Access, SessionEndReason } from '@concurso/shared';

// Who may call a route lives in the shared route map (shared/src/api/access.ts); re-exported for the
// guard and for routes not declared through the map (the socket handshake, the web's files).
export { STAFF_ACCESS } from '@concurso/shared';

/** A signed-in staff member, set on `request.staff` by the role guard. */
export interface StaffPrincipal {
  id: number;
  types_users_id: number;
  /** The token's id, for logout. */
  jti: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** The token's session version (modules/auth/session.ts), for what lasts only while the session does. */
  version: number;
}

/** The team an agent key belongs to, set on `request.agentTeam` by the role guard. */
export interface AgentPrincipal {
  id: number;
  levels_id: number;
  contests_id: number;
}

/** A verified staff token's session: who, which token, which session version, until when (s since epoch). */
export interface SessionClaims {
  userId: number;
  jti: string;
  version: number;
  exp: number;
}

/**
 * What the role guard and the socket handshake need of staff sessions, declared here and implemented
 * by the auth module (`staffSessions` in modules/auth/session.ts), which app.ts hands to both: the
 * plugins below the modules never import one.
 */
export interface StaffSessions {
  /**
   * The session `token` opens and its user's current type, or null: a bad, expired or revoked token, a
   * deleted user, a changed password or role (docs/design.md section 5).
   */
  open(token: string): Promise<{ session: SessionClaims; type: number } | null>;
  /** Of open sessions, the ones now over, by `jti`, with why (the socket's periodic sweep). */
  ended(sessions: SessionClaims[]): Promise<Map<string, SessionEndReason>>;
}

/** What the role guard needs of agent keys (the agent module's cache, handed over by app.ts). */
export interface AgentKeyLookup {
  /**
   * The team whose current key is `key`, or null (wrong, revoked or regenerated key); `address` is the
   * client's, whose wrong keys are limited (throws an HttpError 429 past the limit).
   */
  team(key: string, address?: string): Promise<AgentPrincipal | null>;
}

/** Claims signed into every staff JWT. */
export interface JwtClaims {
  sub: string;
  typ: number;
  jti: string;
  /** The user's `session_version` when the token was signed (see modules/auth/session.ts). */
  ver: number;
  exp?: number;
  iat?: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    staff?: StaffPrincipal;
    agentTeam?: AgentPrincipal;
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: JwtClaims;
    user: JwtClaims;
  }
}
