import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { MikroORM } from '@mikro-orm/mysql';
import { buildApp, type BuildAppOptions } from '../../server/src/app.js';
import { loadConfig, withJwtSecret, type AppConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/database.js';
import { createMigratedDatabase, saveDatabaseSnapshot } from './database-snapshot.js';
import { dropDatabase, throwawayDatabaseUrl } from './environment.js';
import { startRedis } from './redis-instance.js';
import { eventually } from './waiting.js';

/** A running test server (the app built in the test's own process) on its own throwaway database. */
export interface TestServer {
  app: FastifyInstance;
  orm: MikroORM;
  /** `http://127.0.0.1:<port>` (or the `host` it listens on) */
  url: string;
  config: AppConfig;
  close(): Promise<void>;
}

/**
 * How a test server runs beyond its configuration: where (to start one again on the same database and
 * port, a server restart) and with which logger.
 */
export interface RestartOptions {
  databaseUrl?: string;
  port?: number;
  /** Leave the database in place on `close()` (default: drop it). */
  keepDatabase?: boolean;
  /** The app's logger (default none), e.g. the server's own options writing to a test's stream. */
  logger?: BuildAppOptions['logger'];
  /**
   * The address to listen on (default 127.0.0.1), e.g. a lab network's `serverAddress` (a
   * machine in a network namespace reaches the server there); `url` names it.
   */
  host?: string;
  /** How the app resolves the allowed host names of `POST /api/networkSitesInfo` (default: the system's). */
  siteLookup?: BuildAppOptions['siteLookup'];
}

/**
 * Makes a throwaway database (`concurso_test_<random>`), migrated (from the saved script of the
 * current migrations when there is one, database-snapshot.ts; else by the migrations, then saved),
 * builds the app on it and listens on a free loopback port. `close()` stops the app and drops the database. With `restart`, it
 * reuses a database and port instead, as a restarted server would. `overrides` replace configuration
 * values (e.g. `webDistDir` to serve the built web, `agentOfflineAfterMs`); the login limit is 1 000
 * unless overridden, so a file's many sign-ins are not refused.
 */
export async function startTestServer(
  overrides: Partial<AppConfig> = {},
  restart: RestartOptions = {},
): Promise<TestServer> {
  const databaseUrl = restart.databaseUrl ?? throwawayDatabaseUrl();
  const config = withJwtSecret(
    loadConfig(
      {},
      {
        databaseUrl,
        jwtSecret: randomBytes(32).toString('hex'),
        dataDir: path.join(os.tmpdir(), `concurso-test-${randomBytes(4).toString('hex')}`),
        loginRateLimitMax: 1000,
        ...overrides,
      },
    ),
  );
  // A new database starts as a copy of the migrated script; `openDatabase` still runs what is pending.
  const copied = !restart.databaseUrl && (await createMigratedDatabase(databaseUrl));
  const orm = await openDatabase(databaseUrl);
  if (!restart.databaseUrl && !copied) await saveDatabaseSnapshot(databaseUrl);
  const app = await buildApp({
    config,
    orm,
    logger: restart.logger ?? false,
    siteLookup: restart.siteLookup,
  });
  const host = restart.host ?? '127.0.0.1';
  await app.listen({ port: restart.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    orm,
    url: `http://${host}:${port}`,
    config,
    async close() {
      await app.close();
      if (!restart.keepDatabase) await dropDatabase(databaseUrl);
    },
  };
}

/** Two test servers on one database over one Redis, as two processes of one deployment. */
export interface ServerPair {
  /** Made the database (throwaway, dropped by `close()`). */
  first: TestServer;
  /** Same database, Redis and JWT secret as `first`, so a token issued by one is valid on the other. */
  second: TestServer;
  /** Closes `second`, then `first` (which drops the database), then the pair's own Redis. */
  close(): Promise<void>;
}

/**
 * Starts `first` on a throwaway database and `second` on the same database with the same JWT secret,
 * both on a Redis of their own (`startRedis()`, so the test never touches the shared one; `close()`
 * ends it), and waits until both report `redis: 'ok'` on `/api/health` (at most 10 000 ms each).
 * `overrides` apply to both servers' configuration.
 * @throws when a server does not report Redis ok in time (everything is closed first).
 */
export async function startServerPair(overrides: Partial<AppConfig> = {}): Promise<ServerPair> {
  const redis = await startRedis();
  const redisUrl = redis.url;
  let first: TestServer | undefined;
  let second: TestServer | undefined;
  const close = async () => {
    await second?.close();
    await first?.close();
    await redis.destroy();
  };
  try {
    first = await startTestServer({ ...overrides, redisUrl });
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

/** The built web client's folder (web/dist): `startTestServer({ webDistDir: WEB_DIST_DIR })` serves it. */
export { WEB_DIST_DIR } from '../../server/src/app.js';
