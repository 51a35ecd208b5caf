import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES, USER_TYPES, authRoutes as api } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';
import { DUMMY_HASH_PROMISE, verifyPassword } from '../../lib/passwords.js';
import { addRoute } from '../../lib/route.js';
import { endSocketSessions, tokenRoom } from '../../realtime/socket.js';
import { findUserByUsername, getUser, revokeToken } from './auth.repository.js';
import { LoginLimiter, type LoginLimits } from './login-limiter.js';

/** Options of the session routes. */
interface AuthRoutesOptions {
  /** Token lifetime (s). */
  expiresInS: number;
  /** Failed logins allowed per address a minute and per account from one address an hour (config). */
  limits: LoginLimits;
}

/** Sessions (docs/spec.md section 7, docs/design.md sections 4 and 5): the calls of `authRoutes` (shared/src/api/auth.ts). */
const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { expiresInS, limits }) => {
  const limiter = new LoginLimiter(limits, app.redis);

  /**
   * Login. 401 'Usuario o contraseña incorrectos!' for any wrong pair, participants included (the
   * answer never tells which usernames exist; an unknown user costs the same hash check); 403 for a
   * participant with the right password; 429 after too many failed logins from one address, or for one
   * account from that same address (`LoginLimiter`): failures never refuse the right password from an
   * address that has not failed. The client address is `request.ip`, the TCP peer unless it is a proxy
   * in `TRUST_PROXY` (X-Forwarded-For is ignored otherwise).
   */
  addRoute(app, api.login, async (request) => {
    const { username, password } = request.body;
    await limiter.check(request.ip, username);
    const user = await findUserByUsername(app.orm.em, username);
    const ok = user?.password
      ? await verifyPassword(user.password, password)
      : (await verifyPassword(await DUMMY_HASH_PROMISE, password), false);
    if (!user || !ok) {
      await limiter.failed(request.ip, username);
      throw new HttpError(401, MESSAGES.loginInvalid);
    }
    await limiter.succeeded(request.ip, username);
    if (user.type.id === USER_TYPES.participant) throw new HttpError(403, MESSAGES.participantRefused);
    const access_token = app.jwt.sign(
      { sub: String(user.id), typ: user.type.id, jti: randomUUID(), ver: user.session_version },
      { expiresIn: expiresInS },
    );
    return { access_token, token_type: 'bearer' as const, expires_in: expiresInS };
  });

  addRoute(app, api.me, async (request) => {
    const user = await getUser(app.orm.em, request.staff!.id);
    return {
      id: user.id,
      name: user.name,
      username: user.username,
      types_users_id: user.type.id,
      bool: true,
    };
  });

  addRoute(app, api.logout, async (request) => {
    const { jti, exp } = request.staff!;
    await revokeToken(app.orm.em, jti, exp);
    endSocketSessions(app.io, tokenRoom(jti), 'logout');
    return { success: true as const, message: 'Sesión cerrada.' };
  });
};

export default authRoutes;
