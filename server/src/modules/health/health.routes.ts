import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const healthSchema = z.object({
  success: z.boolean(),
  data: z.object({ database: z.enum(['ok', 'down']), redis: z.enum(['ok', 'down', 'off']) }),
  message: z.string(),
});

/**
 * `GET /api/health` (anonymous): whether this process reaches MySQL and, with `REDIS_URL`, Redis.
 * 503 while either is down; both reconnect by themselves when they return.
 */
const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['salud'],
        summary: 'Estado del servidor',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      const database = await app.orm.em
        .execute('select 1')
        .then(() => 'ok' as const)
        .catch(() => 'down' as const);
      const redis = app.redisState();
      const ok = database === 'ok' && redis !== 'down';
      const problems = [database === 'down' ? 'base de datos' : '', redis === 'down' ? 'Redis' : ''].filter(
        Boolean,
      );
      return reply.code(ok ? 200 : 503).send({
        success: ok,
        data: { database, redis },
        message: ok ? '' : `Sin conexión con: ${problems.join(' y ')}.`,
      });
    },
  );
};

export default healthRoutes;
