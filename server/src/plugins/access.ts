import { USER_TYPES } from '@concurso/shared';

/** Who may call a route (DESIGN.md section 5). Every route declares one in `config.access`. */
export type Access = 'public' | 'agent' | ReadonlyArray<(typeof USER_TYPES)[keyof typeof USER_TYPES]>;

/** Admins and judges: reads of the boards, catalogues and logs, blocks and unblocks (DESIGN.md section 5). */
export const STAFF_ACCESS = [USER_TYPES.admin, USER_TYPES.judge] as const;
/** Admins only: every catalogue write (DESIGN.md section 5). */
export const ADMIN_ACCESS = [USER_TYPES.admin] as const;

/** A signed-in staff member, set on `request.staff` by the role guard. */
export interface StaffPrincipal {
  id: number;
  types_users_id: number;
  /** The token's id, for logout. */
  jti: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
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
