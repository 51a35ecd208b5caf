import fp from 'fastify-plugin';
import { MESSAGES } from '@concurso/shared';
import { HttpError } from '../lib/http-error.js';
import type { AgentKeyLookup, StaffSessions } from './access.js';

/** What the guard checks tokens with: the auth module's sessions and the agent module's keys (app.ts). */
interface GuardOptions {
  sessions: StaffSessions;
  agentKeys: AgentKeyLookup;
}

/** The bearer token of a request, or undefined. */
function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * The one role guard (docs/design.md section 5). Every route declares `config.access`: `'public'`,
 * `'agent'` (a team's agent key) or the list of user types allowed. A route that declares nothing
 * under `/api` is refused, so a forgotten declaration fails closed.
 * Answers 401 (no, bad, expired or revoked session; deleted user; password or role changed since the
 * token was signed) and 403 (role). Sessions and agent keys are checked through `options`, so this
 * plugin knows no module.
 */
export default fp<GuardOptions>(
  async (app, { sessions, agentKeys }) => {
    app.addHook('onRequest', async (request) => {
      const url = request.routeOptions.url;
      // The web client's files and the OpenAPI page are public; the 404 handler has no url.
      if (url === undefined || !url.startsWith('/api/') || url.startsWith('/api/docs')) return;
      const access = request.routeOptions.config?.access;
      if (access === 'public') return;
      const token = bearerToken(request.headers.authorization);
      if (access === 'agent') {
        const team = await agentKeys.team(token ?? '', request.ip);
        if (!team) throw new HttpError(401, MESSAGES.agentKeyInvalid);
        request.agentTeam = team;
        return;
      }
      if (!access) throw new HttpError(403, MESSAGES.forbidden);
      if (!token) throw new HttpError(401, MESSAGES.unauthorized);
      const opened = await sessions.open(token);
      if (!opened) throw new HttpError(401, MESSAGES.unauthorized);
      const { session, type } = opened;
      request.staff = {
        id: session.userId,
        types_users_id: type,
        jti: session.jti,
        exp: session.exp,
        version: session.version,
      };
      if (!(access as readonly number[]).includes(type)) throw new HttpError(403, MESSAGES.forbidden);
    });
  },
  { name: 'guard', dependencies: ['orm'] },
);
