import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthRoutes as api } from '@concurso/shared';
import { addRoute } from '../../lib/route.js';

/** Longest `/api/health` waits for the database's answer (ms): a frozen database still gets a 503 in 5 s. */
const HEALTH_DB_TIMEOUT_MS = 2_000;

/**
 * `GET /api/health` (anonymous, `healthRoutes` in shared/src/api/health.ts): whether this process
 * reaches MySQL and, with `REDIS_URL`, Redis. 503 while either is down or the database does not
 * answer within `HEALTH_DB_TIMEOUT_MS`; both reconnect by themselves when they return.
 */
const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  addRoute(app, api.check, async (_request, reply) => {
    // A frozen database never answers: health says 'down' after HEALTH_DB_TIMEOUT_MS whatever the
    // query's own limit, so a load balancer or the fault suite learns it within seconds.
    let timer: NodeJS.Timeout | undefined;
    const database = await Promise.race([
      app.orm.isConnected().then((connected) => (connected ? ('ok' as const) : ('down' as const))),
      new Promise<'down'>((resolve) => (timer = setTimeout(() => resolve('down'), HEALTH_DB_TIMEOUT_MS))),
    ])
      .catch(() => 'down' as const)
      .finally(() => clearTimeout(timer));
    const redis = app.redisState();
    const ok = database === 'ok' && redis !== 'down';
    const problems = [database === 'down' ? 'base de datos' : '', redis === 'down' ? 'Redis' : ''].filter(
      Boolean,
    );
    reply.code(ok ? 200 : 503);
    return {
      success: ok,
      data: { database, redis },
      message: ok ? '' : `Sin conexión con: ${problems.join(' y ')}.`,
    };
  });
};

export default healthRoutes;
