import fp from 'fastify-plugin';
import { AgentKeyCache } from './agent-keys.js';
import { poolSql } from '../../db/sql.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Agent key → team, cached for a few seconds (the attempts hot path). */
    agentKeys: AgentKeyCache;
    /** Forgets cached agent keys in this and every other server process (a key was regenerated). */
    forgetAgentKeys(): void;
  }
}

/**
 * The agent-key cache of this process (`app.agentKeys`, read by the role guard through app.ts) and
 * `app.forgetAgentKeys()`, which clears it here and, through the push channel's Redis link, in every
 * other server process, so a regenerated or deleted team's old key stops working at once
 * (docs/design.md section 6). Owned by the agent module (it once lived in the guard and the socket).
 */
export default fp(
  async (app) => {
    const cache = new AgentKeyCache(poolSql(app.sql));
    app.decorate('agentKeys', cache);
    app.decorate('forgetAgentKeys', () => {
      cache.clear();
      if (app.redis) app.io.serverSideEmit('agentKeys.changed');
    });
    if (app.redis) app.io.on('agentKeys.changed', () => cache.clear());
  },
  { name: 'agent-keys', dependencies: ['orm', 'socket'] },
);
