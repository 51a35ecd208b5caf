import { existsSync } from 'node:fs';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { MESSAGES } from '@concurso/shared';

/**
 * Serves the built web client from `root` (when it exists) and answers every other GET that is not
 * under `/api` or `/socket.io` with `index.html`, so client routes like `/homeJuez` load on refresh.
 * Unknown API paths get the JSON 404.
 */
export default fp<{ root?: string }>(
  async (app, { root }) => {
    const hasWeb = root !== undefined && existsSync(root);
    if (hasWeb) {
      await app.register(fastifyStatic, { root, wildcard: false, index: ['index.html'] });
    }
    app.setNotFoundHandler((request, reply) => {
      const isApi = request.url.startsWith('/api') || request.url.startsWith('/socket.io');
      if (!isApi && hasWeb && request.method === 'GET') {
        return reply.type('text/html').sendFile('index.html');
      }
      return reply.code(404).send({ success: false, message: MESSAGES.notFound });
    });
  },
  { name: 'web' },
);
