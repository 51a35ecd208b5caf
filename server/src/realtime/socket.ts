import fp from 'fastify-plugin';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import {
  ALL_LEVELS_ROOM,
  LEVELS,
  SOCKET_PATH,
  levelRoom,
  type BoardTeam,
  type ClientToServerEvents,
  type TeamRemovedPayload,
  type ServerToClientEvents,
} from '@concurso/shared';
import { activeSessionType } from '../modules/auth/session.js';
import { flushBoardEvents, resetLocalBoards, startBoardEvents } from './board-events.js';
import { openRedisLink, REDIS_STREAM_BLOCK_MS } from './redis-link.js';
import { STAFF_ACCESS, type JwtClaims } from '../plugins/access.js';

/** Data kept on each staff socket. */
export interface SocketData {
  userId: number;
  jti: string;
}

/** What server processes tell each other through Redis (`serverSideEmit`); none without Redis. */
export interface InterServerEvents {
  /** Board rows changed in the sending process, for this one to push to its own screens. */
  'board.rows': (rows: BoardTeam[]) => void;
  /** A team left the board (see `emitTeamRemoved`). */
  'board.removed': (payload: TeamRemovedPayload) => void;
  /** Every screen must refetch its snapshot (see `emitBoardReset`). */
  'board.reset': () => void;
  /** An agent key was regenerated: forget the cached ones. */
  'agentKeys.changed': () => void;
}

export type BoardServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

declare module 'fastify' {
  interface FastifyInstance {
    io: BoardServer;
    /** `'off'` without `REDIS_URL`; otherwise whether the Redis fan-out is connected. */
    redisState(): 'off' | 'ok' | 'down';
    /** Forgets cached agent keys in this and every other server process (a key was regenerated). */
    forgetAgentKeys(): void;
  }
}

/** Room of every socket opened with one token, so logout can close them all. */
export const tokenRoom = (jti: string): string => `jti:${jti}`;
/** Room of every socket of one user. */
export const userRoom = (userId: number): string => `user:${userId}`;

/**
 * The push channel (DESIGN.md section 6): Socket.IO on Fastify's HTTP server at `/socket.io`.
 * The handshake must carry a valid, unrevoked staff JWT in `auth.token`; the socket then joins
 * `level:<id>` for the levels it asks for in `auth.levels` (default: all). With `redisUrl`, events
 * fan out to every server process through the Redis streams adapter.
 */
export default fp<{ redisUrl?: string }>(
  async (app, { redisUrl }) => {
    const io: BoardServer = new Server(app.server, {
      path: SOCKET_PATH,
      serveClient: false,
      // Same origin only: the web is served by this server.
      cors: undefined,
    });

    const redis = redisUrl
      ? openRedisLink(redisUrl, app.log, {
          // Rows relayed while Redis was away never reached the other processes' screens: every
          // process makes its own screens refetch their snapshot when its link comes back.
          onRecovered: () => resetLocalBoards(io),
        })
      : undefined;
    if (redis) {
      io.adapter(
        createAdapter(redis.client, {
          streamName: 'concurso:socket.io',
          blockTimeInMs: REDIS_STREAM_BLOCK_MS,
        }),
      );
    }
    app.decorate('redisState', () => (redis ? (redis.isReady() ? 'ok' : 'down') : 'off'));
    startBoardEvents(io, Boolean(redis));
    app.decorate('forgetAgentKeys', () => {
      app.agentKeys.clear();
      if (redis) io.serverSideEmit('agentKeys.changed');
    });
    if (redis) io.on('agentKeys.changed', () => app.agentKeys.clear());

    io.use(async (socket, next) => {
      const auth = socket.handshake.auth as { token?: unknown; levels?: unknown };
      const refuse = () => next(new Error('unauthorized'));
      if (typeof auth.token !== 'string') return refuse();
      let claims: JwtClaims;
      try {
        claims = app.jwt.verify<JwtClaims>(auth.token);
      } catch {
        return refuse();
      }
      try {
        const type = await activeSessionType(app.orm.em.fork(), Number(claims.sub), claims.jti);
        if (type === null || !(STAFF_ACCESS as readonly number[]).includes(type)) return refuse();
      } catch (err) {
        app.log.error({ err }, 'socket auth failed');
        return next(new Error('unavailable'));
      }
      socket.data = { userId: Number(claims.sub), jti: claims.jti };
      const wanted = Array.isArray(auth.levels)
        ? auth.levels.map(Number).filter((n) => Number.isInteger(n) && n > 0)
        : [];
      const levels = wanted.length > 0 ? wanted : Object.values(LEVELS);
      const everyLevel = Object.values(LEVELS).every((id) => levels.includes(id));
      await socket.join([
        ...levels.map(levelRoom),
        ...(everyLevel ? [ALL_LEVELS_ROOM] : []),
        tokenRoom(claims.jti),
        userRoom(Number(claims.sub)),
      ]);
      next();
    });

    app.decorate('io', io);
    app.addHook('preClose', async () => {
      flushBoardEvents(io);
      // Not `disconnectSockets`: a server-side disconnect tells socket.io-client not to reconnect, and
      // every screen would stay on "Sin conexión" after a restart. `io.close()` ends the transports
      // instead, which clients treat as a dropped connection: they reconnect and refetch by themselves.
      await new Promise<void>((resolve) => io.close(() => resolve()));
      if (redis) await redis.quit();
    });
  },
  { name: 'socket', dependencies: ['orm', 'guard'] },
);
