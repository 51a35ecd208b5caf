import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MESSAGES, USER_TYPES, loginResponseSchema, loginSchema, meResponseSchema } from '@concurso/shared';
import { User } from '../users/user.entity.js';
import { STAFF_ACCESS } from '../../plugins/access.js';
import { HttpError } from '../../lib/http-error.js';
import { DUMMY_HASH_PROMISE, verifyPassword } from '../../lib/passwords.js';
import { revokeToken } from './session.js';
import { endSocketSessions, tokenRoom } from '../../realtime/socket.js';
import { LoginLimiter, type LoginLimits } from './login-limiter.js';

/** Options of the session routes. */
export interface AuthRoutesOptions {
  /** Token lifetime (s). */
  expiresInS: number;
  /** Failed logins allowed per address a minute and per account an hour (config). */
  limits: LoginLimits;
}

/** Sessions (SPEC.md section 7, DESIGN.md sections 4 and 5). */
const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { expiresInS, limits }) => {
  const limiter = new LoginLimiter(limits, app.redis);

  /**
   * `POST /api/auth/login` `{username, password}` → `{access_token, token_type: 'bearer', expires_in}`
   * (seconds). 401 'Usuario o contraseña incorrectos!' for any wrong pair, participants included (the
   * answer never tells which usernames exist); 403 for a participant with the right password; 422
   * missing fields; 429 after too many failed logins from one address or for one account
   * (`LoginLimiter`). The client address is the TCP peer unless it is a proxy in `TRUST_PROXY`.
   */
  app.post(
    '/auth/login',
    {
      config: { access: 'public' },
      schema: {
        tags: ['sesión'],
        summary: 'Inicia sesión',
        body: loginSchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request) => {
      const { username, password } = request.body;
      await limiter.check(request.ip, username);
      const em = app.orm.em;
      const user = await em.findOne(User, { username });
      const ok = user?.password
        ? await verifyPassword(user.password, password)
        : (await verifyPassword(await DUMMY_HASH_PROMISE, password), false);
      if (!user || !ok) {
        await limiter.failed(request.ip, username);
        throw new HttpError(401, MESSAGES.loginInvalid);
      }
      await limiter.succeeded(username);
      if (user.type.id === USER_TYPES.participant) throw new HttpError(403, MESSAGES.participantRefused);
      const access_token = app.jwt.sign(
        { sub: String(user.id), typ: user.type.id, jti: randomUUID(), ver: user.session_version },
        { expiresIn: expiresInS },
      );
      return { access_token, token_type: 'bearer' as const, expires_in: expiresInS };
    },
  );

  /** `POST /api/auth/me` → `{id, name, username, types_users_id, bool: true}`; 401 when the session is over. */
  app.post(
    '/auth/me',
    {
      config: { access: STAFF_ACCESS },
      schema: { tags: ['sesión'], summary: 'Usuario de la sesión', response: { 200: meResponseSchema } },
    },
    async (request) => {
      const user = await app.orm.em.findOneOrFail(User, request.staff!.id);
      return {
        id: user.id,
        name: user.name,
        username: user.username,
        types_users_id: user.type.id,
        bool: true,
      };
    },
  );

  /**
   * `POST /api/auth/logout`: revokes this token for good and closes every socket opened with it.
   */
  app.post(
    '/auth/logout',
    {
      config: { access: STAFF_ACCESS },
      schema: {
        tags: ['sesión'],
        summary: 'Cierra la sesión',
        response: { 200: z.object({ success: z.literal(true), message: z.string() }) },
      },
    },
    async (request) => {
      const { jti, exp } = request.staff!;
      await revokeToken(app.orm.em, jti, exp);
      endSocketSessions(app.io, tokenRoom(jti), 'logout');
      return { success: true as const, message: 'Sesión cerrada.' };
    },
  );
};

export default authRoutes;
