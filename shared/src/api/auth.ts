import { z } from 'zod';
import { loginResponseSchema, loginSchema, meResponseSchema } from '../schemas/auth.js';
import { STAFF_ACCESS } from './access.js';
import { defineRoute } from './route.js';

const tag = 'sesión';

/** Sessions (docs/spec.md section 7, docs/design.md sections 4 and 5). */
export const authRoutes = {
  /**
   * `{username, password}` → `{access_token, token_type: 'bearer', expires_in}` (seconds). 401
   * 'Usuario o contraseña incorrectos!' for any wrong pair, 403 for a participant, 422 missing fields,
   * 429 after too many failed logins from one address, or for one account from that same address (the
   * right password from an address that has not failed still signs in).
   */
  login: defineRoute({
    method: 'POST',
    path: '/api/auth/login',
    access: 'public',
    tag,
    summary: 'Inicia sesión',
    body: loginSchema,
    reply: loginResponseSchema,
  }),
  /** → `{id, name, username, types_users_id, bool: true}`; 401 when the session is over. */
  me: defineRoute({
    method: 'POST',
    path: '/api/auth/me',
    access: STAFF_ACCESS,
    tag,
    summary: 'Usuario de la sesión',
    reply: meResponseSchema,
  }),
  /** Revokes this token for good and closes every socket opened with it: `{success, message}`. */
  logout: defineRoute({
    method: 'POST',
    path: '/api/auth/logout',
    access: STAFF_ACCESS,
    tag,
    summary: 'Cierra la sesión',
    reply: z.object({ success: z.literal(true), message: z.string() }),
  }),
} as const;
