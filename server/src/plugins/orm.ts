import fp from 'fastify-plugin';
import { RequestContext, type MikroORM } from '@mikro-orm/mysql';

declare module 'fastify' {
  interface FastifyInstance {
    orm: MikroORM;
  }
}

/**
 * Decorates the app with the ORM and gives every request its own identity map
 * (`RequestContext.create`, as in mikro-orm/guide), so `app.orm.em` is request-scoped in handlers.
 * Closes the ORM when the app closes.
 */
export default fp<{ orm: MikroORM }>(
  async (app, { orm }) => {
    app.decorate('orm', orm);
    app.addHook('onRequest', (_request, _reply, done) => {
      RequestContext.create(orm.em, done);
    });
    app.addHook('onClose', async () => {
      await orm.close();
    });
  },
  { name: 'orm' },
);
