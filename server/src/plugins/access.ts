import type { Access } from '@concurso/shared';

// Who may call a route lives in the shared route map (shared/src/api/access.ts); re-exported for the
// guard and for routes not declared through the map (the socket handshake, the web's files).
export { ADMIN_ACCESS, STAFF_ACCESS, type Access } from '@concurso/shared';

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
