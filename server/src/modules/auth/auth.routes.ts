import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LOGIN_RATE_LIMIT,
  MESSAGES,
  USER_TYPES,
  loginResponseSchema,
  loginSchema,
  meResponseSchema,
} from '@concurso/shared';
import { User } from '../../db/entities/index.js';
import { STAFF_ACCESS } from '../../plugins/access.js';
import { HttpError } from '../../lib/http-error.js';
import { DUMMY_HASH_PROMISE, verifyPassword } from '../../lib/passwords.js';
import { revokeToken } from './session.js';
import { tokenRoom } from '../../realtime/socket.js';

/** Sessions (SPEC.md section 7, DESIGN.md sections 4 and 5). */
const authRoutes: FastifyPluginAsyncZod<{ expiresInS: number; loginRateLimitMax: number }> = async (
  app,
  { expiresInS, loginRateLimitMax },
) => {
  /**
   * `POST /api/auth/login` `{username, password}` → `{access_token, token_type: 'bearer', expires_in}`
   * (seconds). 401 'Usuario o contraseña incorrectos!'; 403 for participants; 422 missing fields;
   * 429 after `LOGIN_RATE_LIMIT_MAX` tries a minute from one address.
   */
  app.post(
    '/auth/login',
    {
      config: {
        access: 'public',
        rateLimit: { max: loginRateLimitMax, timeWindow: LOGIN_RATE_LIMIT.timeWindowMs },
      },
      schema: {
        tags: ['sesión'],
        summary: 'Inicia sesión',
        body: loginSchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request) => {
      const { username, password } = request.body;
      const em = app.orm.em;
      const user = await em.findOne(User, { username });
      const ok = user?.password
        ? await verifyPassword(user.password, password)
        : (await verifyPassword(await DUMMY_HASH_PROMISE, password), false);
      if (!user || !ok) {
        // A participant has no password: they get the same answer as a wrong password unless they
        // exist, in which case the message says the console is not for them.
        if (user && user.type.id === USER_TYPES.participant)
          throw new HttpError(403, MESSAGES.participantRefused);
        throw new HttpError(401, MESSAGES.loginInvalid);
      }
      if (user.type.id === USER_TYPES.participant) throw new HttpError(403, MESSAGES.participantRefused);
      const access_token = app.jwt.sign(
        { sub: String(user.id), typ: user.type.id, jti: randomUUID() },
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
      app.io.in(tokenRoom(jti)).disconnectSockets(true);
      return { success: true as const, message: 'Sesión cerrada.' };
    },
  );
};

export default authRoutes;
