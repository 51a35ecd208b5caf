import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** `GET /api/health` (anonymous): database state; 503 while MySQL does not answer. */
const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['salud'],
        summary: 'Estado del servidor',
        response: {
          200: z.object({
            success: z.boolean(),
            data: z.object({ database: z.string() }),
            message: z.string(),
          }),
          503: z.object({
            success: z.boolean(),
            data: z.object({ database: z.string() }),
            message: z.string(),
          }),
        },
      },
    },
    async (_request, reply) => {
      try {
        await app.orm.em.execute('select 1');
        return { success: true, data: { database: 'ok' }, message: '' };
      } catch {
        return reply
          .code(503)
          .send({ success: false, data: { database: 'down' }, message: 'Base de datos no disponible.' });
      }
    },
  );
};

export default healthRoutes;
