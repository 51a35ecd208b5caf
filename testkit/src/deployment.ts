import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { dropDatabase, throwawayDatabaseUrl } from './environment.js';
import { HttpApi } from './http-api.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { freePort } from './waiting.js';

/** The first administrator every deployment's processes create (ADMIN_USERNAME / ADMIN_PASSWORD). */
export const DEPLOYMENT_ADMIN = { username: 'admin_proceso', password: 'Reinicio-Seguro-2026' };

/** Options of `startDeployment`. */
export interface DeploymentOptions {
  /** How many server processes (default 1). */
  processes?: number;
  /** Their database (default: a throwaway one on the test server). */
  databaseUrl?: string;
  /** Whether `stop()` drops the database (default: only when it is the default throwaway one). */
  dropDatabase?: boolean;
  /** Redis for the live events between processes (default none: each process alone, in memory). */
  redisUrl?: string;
  /** Ports, one per process (default: free ones). */
  ports?: number[];
  /**
   * `together` (default): every process starts at once, as in production, and the migration lock lets
   * one of them migrate; `first`: the first migrates alone, then the rest start together.
   */
  start?: 'together' | 'first';
  /** More environment for every process (e.g. `LOGIN_RATE_LIMIT_MAX`); LOG_LEVEL is `warn` unless given. */
  env?: Record<string, string>;
  /** The first administrator (default `DEPLOYMENT_ADMIN`). */
  admin?: { username: string; password: string };
  /** Node flags of every process (e.g. `--cpu-prof`). */
  nodeFlags?: string[];
  /** Where every process's output goes besides `ServerProcess.output()`, line by line. */
  onLine?: (line: string) => void;
}

/** Server processes of one deployment, sharing a database, a data folder, a JWT secret and an administrator. */
export interface Deployment {
  readonly servers: ServerProcess[];
  /** `http://127.0.0.1:<port>` of each process. */
  readonly urls: string[];
  readonly databaseUrl: string;
  readonly dataDir: string;
  /** Signs in as the first administrator on process `index` (default 0). */
  admin(index?: number): Promise<HttpApi>;
  /** Stops every process (SIGTERM, SIGKILL after 5 s), drops the database if told so, removes the data folder. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts real server processes as `npm start` runs them (`server-process.ts`: the compiled
 * server, built first when the sources changed), on one database with their own data folder, the
 * same JWT secret (a token of one is valid on all, and after a restart) and `DEPLOYMENT_ADMIN`.
 * @throws when a process does not become healthy (the others are stopped and the folder removed first).
 */
export async function startDeployment(options: DeploymentOptions = {}): Promise<Deployment> {
  const count = options.processes ?? 1;
  const ownDatabase = options.dropDatabase ?? options.databaseUrl === undefined;
  const databaseUrl = options.databaseUrl ?? throwawayDatabaseUrl();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'concurso-proceso-'));
  const ports = options.ports ?? (await Promise.all(Array.from({ length: count }, () => freePort())));
  const admin = options.admin ?? DEPLOYMENT_ADMIN;
  const env = {
    // Empty counts as unset: without Redis each process is alone, with the in-memory adapter.
    REDIS_URL: options.redisUrl ?? '',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    JWT_SECRET: `secreto-de-prueba-${randomBytes(24).toString('hex')}`,
    ADMIN_USERNAME: admin.username,
    ADMIN_PASSWORD: admin.password,
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  const servers: ServerProcess[] = [];
  const startOne = async (port: number) => {
    const server = await startServerProcess({
      port,
      env,
      nodeFlags: options.nodeFlags,
      onLine: options.onLine,
    });
    servers.push(server);
    return server;
  };

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await Promise.all(servers.map((server) => server.stop()));
    if (ownDatabase) await dropDatabase(databaseUrl);
    await rm(dataDir, { recursive: true, force: true });
  };

  // Settled, not Promise.all: on a failure every process that did start is known before `stop()`.
  const startAll = async (some: number[]) => {
    const failed = (await Promise.allSettled(some.map(startOne))).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
  try {
    if (options.start === 'first') {
      await startAll(ports.slice(0, 1));
      await startAll(ports.slice(1));
    } else {
      await startAll(ports);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  // In port order, whichever started first.
  servers.sort((a, b) => ports.indexOf(a.port) - ports.indexOf(b.port));
  return {
    servers,
    urls: servers.map((server) => server.url),
    databaseUrl,
    dataDir,
    admin: (index = 0) => HttpApi.signIn(servers[index]!.url, admin.username, admin.password),
    stop,
  };
}
