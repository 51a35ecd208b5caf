import fp from 'fastify-plugin';
import { Server, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import {
  ALL_LEVELS_ROOM,
  LEVELS,
  SOCKET_PATH,
  levelRoom,
  type AgentMessage,
  type BoardTeam,
  type ClientToServerEvents,
  type TeamRemovedPayload,
  type ServerToClientEvents,
  type SessionEndReason,
  socketAuthSchema,
} from '@concurso/shared';
import { openRedisLink, REDIS_STREAM_BLOCK_MS, type RedisClient } from './redis-link.js';
import { STAFF_ACCESS, type SessionClaims, type StaffSessions } from '../plugins/access.js';

/** Data kept on each staff socket: the session it was opened with. */
interface SocketData {
  session: SessionClaims;
}

/** How often each process checks that its open sockets' sessions still hold (ms). */
const SESSION_SWEEP_MS = 15_000;

/** Tells one socket its session is over (`session.ended`), then closes it. */
function endSocket(socket: BoardSocket, reason: SessionEndReason): void {
  socket.emit('session.ended', { reason });
  socket.disconnect(true);
}

/**
 * Ends the sessions of every socket in `room` (a token's or a user's), in every server process: each
 * gets `session.ended` with `reason`, then is disconnected, so the web goes to the login page instead
 * of reconnecting. A process Redis could not reach ends them at its next session sweep.
 */
export function endSocketSessions(io: BoardServer, room: string, reason: SessionEndReason): void {
  io.in(room).emit('session.ended', { reason });
  io.in(room).disconnectSockets(true);
}

/** What server processes tell each other through Redis (`serverSideEmit`); none without Redis. */
export interface InterServerEvents {
  /**
   * Board rows changed in the sending process, for this one to push to its own screens;
   * `committedAt`: the oldest one's commit time (`clockMs()`, ms), which frames are stamped with.
   */
  'board.rows': (rows: BoardTeam[], committedAt: number) => void;
  /** A team left the board (see `app.board.teamRemoved`). */
  'board.removed': (payload: TeamRemovedPayload) => void;
  /** Every screen must refetch its snapshot (see `app.board.reset`). */
  'board.reset': () => void;
  /** An agent key was regenerated: forget the cached ones. */
  'agentKeys.changed': () => void;
  /** An agent's policy may have changed: send the agents of this process theirs (agent module). */
  'agentPolicy.changed': () => void;
  /** A message to the agents of these teams: each process sends it to its own (agent module). */
  'agentMessage.send': (teamIds: number[], message: AgentMessage) => void;
}

export type BoardServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
/** One staff socket of this process. */
export type BoardSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

declare module 'fastify' {
  interface FastifyInstance {
    io: BoardServer;
    /** The Redis client shared by the push channel and the login limits; undefined without `REDIS_URL`. */
    redis: RedisClient | undefined;
    /** `'off'` without `REDIS_URL`; otherwise whether the Redis fan-out is connected. */
    redisState(): 'off' | 'ok' | 'down';
    /**
     * Runs `listener` each time the Redis link comes back after being down: what was relayed to the
     * other processes meanwhile was lost (the board plugin makes this process's screens refetch).
     */
    onRedisRecovered(listener: () => void): void;
    /**
     * Runs `listener` when the app closes, just before the sockets are closed, so what is still
     * gathered reaches the screens (the board plugin's last push).
     */
    onSocketsClosing(listener: () => void): void;
  }
}

/** Room of every socket opened with one token, so logout can close them all. */
export const tokenRoom = (jti: string): string => `jti:${jti}`;
/** Room of every socket of one user. */
export const userRoom = (userId: number): string => `user:${userId}`;

/**
 * The push channel (docs/design.md section 6): Socket.IO on Fastify's HTTP server at `/socket.io`.
 * The handshake must carry a valid, unrevoked staff JWT in `auth.token` (refused: `unauthorized`) and
 * nothing but real level ids in `auth.levels` (refused: `invalid`); the socket then joins `level:<id>`
 * for those levels (default: all). It is closed with `session.ended` when its token expires, is
 * revoked, or its user's password or role changes or the user is deleted. With `redisUrl`, events
 * fan out to every server process through the Redis streams adapter.
 */
interface SocketOptions {
  redisUrl?: string;
  /** The staff sessions (the auth module's, handed over by app.ts). */
  sessions: StaffSessions;
  /** Whether every id names a level (the levels module's, handed over by app.ts). */
  levelsExist(ids: number[]): Promise<boolean>;
}

export default fp<SocketOptions>(
  async (app, { redisUrl, sessions, levelsExist }) => {
    const io: BoardServer = new Server(app.server, {
      path: SOCKET_PATH,
      serveClient: false,
      // Same origin only: the web is served by this server.
      cors: undefined,
    });

    const recovered: Array<() => void> = [];
    const closing: Array<() => void> = [];
    app.decorate('onRedisRecovered', (listener: () => void) => void recovered.push(listener));
    app.decorate('onSocketsClosing', (listener: () => void) => void closing.push(listener));

    const redis = redisUrl
      ? openRedisLink(redisUrl, app.log, {
          onRecovered: () => recovered.forEach((listener) => listener()),
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
    app.decorate('redis', redis?.client);
    app.decorate('redisState', () => (redis ? (redis.isReady() ? 'ok' : 'down') : 'off'));

    io.use(async (socket, next) => {
      const refuse = () => next(new Error('unauthorized'));
      const raw = socket.handshake.auth as { token?: unknown };
      if (typeof raw.token !== 'string' || raw.token === '') return refuse();
      const auth = socketAuthSchema.safeParse(raw);
      if (!auth.success) return next(new Error('invalid'));
      let session: SessionClaims;
      try {
        const opened = await sessions.open(auth.data.token);
        if (!opened || !(STAFF_ACCESS as readonly number[]).includes(opened.type)) return refuse();
        session = opened.session;
        if (auth.data.levels && !(await levelsExist(auth.data.levels))) return next(new Error('invalid'));
      } catch (err) {
        app.log.error({ err }, 'socket auth failed');
        return next(new Error('unavailable'));
      }
      socket.data = { session };
      const levels = auth.data.levels ?? Object.values(LEVELS);
      const everyLevel = Object.values(LEVELS).every((id) => levels.includes(id));
      await socket.join([
        ...levels.map(levelRoom),
        ...(everyLevel ? [ALL_LEVELS_ROOM] : []),
        tokenRoom(session.jti),
        userRoom(session.userId),
      ]);
      // A socket never outlives its token.
      // (setTimeout holds at most 2^31-1 ms, ~24.8 days; tokens live 12 h.)
      const untilExpiry = Math.min(session.exp * 1000 - Date.now(), 2 ** 31 - 1);
      const expiry = setTimeout(() => endSocket(socket, 'expired'), Math.max(0, untilExpiry));
      socket.once('disconnect', () => clearTimeout(expiry));
      next();
    });

    // Sessions ended while this process could not be told (Redis away when a password changed, a
    // user was deleted or a token revoked) end here too: every SESSION_SWEEP_MS the open sockets'
    // sessions are checked in two queries.
    const sweep = setInterval(() => {
      const sockets = [...io.of('/').sockets.values()];
      if (sockets.length === 0) return;
      sessions
        .ended(sockets.map((s) => s.data.session))
        .then((ended) => {
          for (const socket of sockets) {
            const reason = ended.get(socket.data.session.jti);
            if (reason) endSocket(socket, reason);
          }
        })
        .catch((err: unknown) => app.log.warn({ err }, 'session sweep failed'));
    }, SESSION_SWEEP_MS);
    sweep.unref();

    app.decorate('io', io);
    app.addHook('preClose', async () => {
      clearInterval(sweep);
      closing.forEach((listener) => listener());
      // Not `disconnectSockets`: a server-side disconnect tells socket.io-client not to reconnect, and
      // every screen would stay on "Sin conexión" after a restart. `io.close()` ends the transports
      // instead, which clients treat as a dropped connection: they reconnect and refetch by themselves.
      await new Promise<void>((resolve) => io.close(() => resolve()));
      if (redis) await redis.quit();
    });
  },
  { name: 'socket', dependencies: ['orm'] },
);
