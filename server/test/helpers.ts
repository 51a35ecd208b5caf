import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { MikroORM } from '@mikro-orm/mysql';
import { io as ioClient, type Socket } from 'socket.io-client';
import {
  EDUCATION_LEVELS,
  SOCKET_PATH,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type UserTypeId,
} from '@concurso/shared';
import { buildApp } from '../src/app.js';
import { loadConfig, type AppConfig } from '../src/config.js';
import { dropDatabase, openDatabase } from '../src/db/database.js';
import { hashPassword } from '../src/lib/passwords.js';
import { Coach } from '../src/modules/coaches/coach.entity.js';
import { Contest } from '../src/modules/contests/contest.entity.js';
import { Team } from '../src/modules/teams/team.entity.js';
import { User } from '../src/modules/users/user.entity.js';
import { TypeUser } from '../src/modules/users/type-user.entity.js';
import { Level } from '../src/modules/levels/level.entity.js';

/** Server URL of the test MySQL/MariaDB, without a database. */
const SERVER_URL = (process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/').replace(/\/[^/]*$/, '/');

/** A running test server on its own throwaway database. */
export interface TestServer {
  app: FastifyInstance;
  orm: MikroORM;
  /** `http://127.0.0.1:<port>` */
  url: string;
  config: AppConfig;
  close(): Promise<void>;
}

/** Where a test server runs, to start one again on the same database and port (a server restart). */
export interface RestartOptions {
  databaseUrl?: string;
  port?: number;
  /** Leave the database in place on `close()` (default: drop it). */
  keepDatabase?: boolean;
}

/**
 * Makes a throwaway database (`concurso_test_<random>`), migrates it, builds the app on it and
 * listens on a free loopback port. `close()` stops the app and drops the database. With `restart`, it
 * reuses a database and port instead, as a restarted server would.
 */
export async function startTestServer(
  overrides: Partial<AppConfig> = {},
  restart: RestartOptions = {},
): Promise<TestServer> {
  const databaseUrl = restart.databaseUrl ?? `${SERVER_URL}concurso_test_${randomBytes(5).toString('hex')}`;
  const config = loadConfig(
    {},
    {
      databaseUrl,
      jwtSecret: randomBytes(32).toString('hex'),
      dataDir: path.join(os.tmpdir(), `concurso-test-${randomBytes(4).toString('hex')}`),
      loginRateLimitMax: 1000,
      ...overrides,
    },
  );
  const orm = await openDatabase(databaseUrl);
  const app = await buildApp({ config, orm });
  await app.listen({ port: restart.port ?? 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    orm,
    url: `http://127.0.0.1:${port}`,
    config,
    async close() {
      await app.close();
      if (!restart.keepDatabase) await dropDatabase(databaseUrl);
    },
  };
}

/** Creates a user with a password (staff) or none (participant). */
export async function createUser(
  orm: MikroORM,
  type: UserTypeId,
  username = `u_${randomBytes(4).toString('hex')}`,
  password: string | null = 'secreto-123',
) {
  const em = orm.em.fork();
  const user = em.create(
    User,
    {
      name: `Usuario ${username}`,
      username,
      password: password === null ? null : await hashPassword(password),
      type: em.getReference(TypeUser, type),
      // `partial`: MikroORM 6.6 types a hidden nullable column as required.
    },
    { partial: true },
  );
  await em.persistAndFlush(user);
  return { id: user.id, username, password };
}

/** Creates a contest on `date` (`YYYY-MM-DD`); with the latest date it becomes the current one. */
export async function createContest(orm: MikroORM, date = '2026-11-21') {
  const em = orm.em.fork();
  const year = date.slice(0, 4);
  const contest = em.create(Contest, {
    date,
    calendar: `${year}${Number(date.slice(5, 7)) <= 6 ? 'A' : 'B'}`,
  });
  await em.persistAndFlush(contest);
  return contest;
}

/** Creates a team (and a coach for it) in `contestId` at `levelsId`. */
export async function createTeam(orm: MikroORM, contestId: number, levelsId: number, name?: string) {
  const em = orm.em.fork();
  const coach = em.create(Coach, { name: 'Mtra. Laura Méndez', educationalLevel: EDUCATION_LEVELS[1] });
  const team = em.create(
    Team,
    {
      name: name ?? `Equipo ${randomBytes(3).toString('hex')}`,
      level: em.getReference(Level, levelsId),
      coach,
      contest: em.getReference(Contest, contestId),
    },
    { partial: true },
  );
  await em.persistAndFlush(team);
  return { id: team.id, name: team.name, levels_id: levelsId };
}

/** Signs in through the API and returns the bearer token. */
export async function login(app: FastifyInstance, username: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`login ${username}: ${res.statusCode} ${res.body}`);
  return res.json().access_token as string;
}

export type BoardSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Opens a real socket.io-client to the test server and waits until it connects (or rejects). */
export function connectSocket(url: string, token: string, levels?: number[]): Promise<BoardSocket> {
  const socket: BoardSocket = ioClient(url, {
    path: SOCKET_PATH,
    auth: { token, ...(levels ? { levels } : {}) },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

/** Resolves with the next `event` on `socket`, or rejects after `timeoutMs`. */
export function nextEvent<E extends keyof ServerToClientEvents>(
  socket: BoardSocket,
  event: E,
  timeoutMs = 3_000,
): Promise<Parameters<ServerToClientEvents[E]>[0]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, handler as never);
      reject(new Error(`no '${event}' within ${timeoutMs} ms`));
    }, timeoutMs);
    const handler = (payload: unknown) => {
      clearTimeout(timer);
      resolve(payload as Parameters<ServerToClientEvents[E]>[0]);
    };
    socket.once(event, handler as never);
  });
}

/** Collects every `event` received on `socket` into an array. */
export function collect<E extends keyof ServerToClientEvents>(socket: BoardSocket, event: E) {
  const seen: Array<Parameters<ServerToClientEvents[E]>[0]> = [];
  socket.on(event, ((payload: Parameters<ServerToClientEvents[E]>[0]) => seen.push(payload)) as never);
  return seen;
}

/** Attempt rows of a team and its `number_attempts`, read straight from the database. */
export async function attemptCounts(orm: MikroORM, teamId: number): Promise<{ rows: number; count: number }> {
  const rows = await orm.em
    .fork()
    .execute<Array<{ n: number; total: number }>>(
      'select (select count(*) from attempts where teams_id = ?) as n, (select number_attempts from teams where id = ?) as total',
      [teamId, teamId],
    );
  return { rows: Number(rows[0]!.n), count: Number(rows[0]!.total) };
}

/** Generates a team's agent key through the API as an admin; answers the key. */
export async function generateAgentKey(
  app: FastifyInstance,
  adminToken: string,
  teamId: number,
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/generateAgentKey/${teamId}`,
    headers: { authorization: `Bearer ${adminToken}` },
  });
  if (res.statusCode !== 200) throw new Error(`generateAgentKey ${teamId}: ${res.statusCode} ${res.body}`);
  return res.json().data.key as string;
}

/** A free loopback TCP port (for a server process or service a test starts itself). */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/**
 * Polls `check` every 100 ms until it answers true, for at most `ms` (ms); answers whether it did.
 * `check` may answer at once or through a promise.
 */
export async function eventually(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Two test servers on one database over one Redis, as two processes of one deployment. */
export interface ServerPair {
  /** Made the database (throwaway, dropped by `close()`). */
  first: TestServer;
  /** Same database, Redis and JWT secret as `first`, so a token issued by one is valid on the other. */
  second: TestServer;
  /** Closes `second`, then `first` (which drops the database). The Redis is the caller's to stop. */
  close(): Promise<void>;
}

/**
 * Starts `first` on a throwaway database and `second` on the same database with the same JWT secret,
 * both on `redisUrl` (a Redis of the test's own, e.g. `startRedis()` of `support/redis-instance.ts`),
 * and waits until both report `redis: 'ok'` on `/api/health` (at most 10 000 ms each).
 * `overrides` apply to both servers' configuration.
 * @throws when a server does not report Redis ok in time (both are closed first).
 */
export async function startServerPair(
  redisUrl: string,
  overrides: Partial<AppConfig> = {},
): Promise<ServerPair> {
  const first = await startTestServer({ ...overrides, redisUrl });
  let second: TestServer | undefined;
  const close = async () => {
    await second?.close();
    await first.close();
  };
  try {
    second = await startTestServer(
      { ...overrides, redisUrl, jwtSecret: first.config.jwtSecret },
      { databaseUrl: first.config.databaseUrl, keepDatabase: true },
    );
    for (const [name, server] of [
      ['first', first],
      ['second', second],
    ] as const) {
      const ready = await eventually(async () => {
        const res = await server.app.inject({ method: 'GET', url: '/api/health' });
        return res.statusCode === 200 && res.json().data.redis === 'ok';
      }, 10_000);
      if (!ready) throw new Error(`the ${name} test server did not report redis 'ok' within 10 000 ms`);
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { first, second, close };
}
