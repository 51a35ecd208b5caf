import fp from 'fastify-plugin';
import { RequestContext, type MikroORM } from '@mikro-orm/mysql';
import type mysql from 'mysql2/promise';
import { createSqlPool } from '../db/sql.js';

declare module 'fastify' {
  interface FastifyInstance {
    orm: MikroORM;
    /**
     * The bare mysql2 pool of the agents' hot paths (db/sql.ts `createSqlPool`: the attempts group
     * commit, the key lookup, the heartbeat), on the ORM's database with its limits.
     */
    sql: mysql.Pool;
  }
  interface FastifyContextConfig {
    /**
     * false: the route gets no request-scoped EntityManager (`RequestContext`): it runs on `app.sql` or
     * forks `app.orm.em` where it needs the ORM. The agents' hot paths (the context's fork and
     * async hook showed in their profile, BENCHMARKS.md).
     */
    entityContext?: boolean;
  }
}

/**
 * Decorates the app with the ORM and gives every request its own identity map
 * (`RequestContext.create`, as in mikro-orm/guide), so `app.orm.em` is request-scoped in handlers,
 * except on routes declared with `config.entityContext: false`. Also `app.sql`, the bare pool of
 * `sqlConnections` connections on `databaseUrl` (the ORM's; a `?socketPath=` included). Closes both when
 * the app closes.
 */
export default fp<{ orm: MikroORM; databaseUrl: string; sqlConnections: number }>(
  async (app, { orm, databaseUrl, sqlConnections }) => {
    app.decorate('orm', orm);
    app.decorate('sql', createSqlPool(databaseUrl, sqlConnections));
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.routeOptions.config?.entityContext === false) return done();
      RequestContext.create(orm.em, done);
    });
    app.addHook('onClose', async () => {
      await app.sql.end();
      await orm.close();
    });
  },
  { name: 'orm' },
);
