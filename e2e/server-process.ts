import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropDatabase } from '../server/src/db/database.js';
import { freePort } from '../server/test/helpers.js';
import {
  startServerProcess,
  type ServerProcess as SupportServerProcess,
} from '../server/test/support/server-process.js';

/** Server URL of the test MySQL/MariaDB, without a database (as in server/test/helpers.ts). */
const SERVER_URL = (process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/').replace(/\/[^/]*$/, '/');
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The first administrator a {@link ServerProcess} creates (ADMIN_USERNAME / ADMIN_PASSWORD). */
export const PROCESS_ADMIN = { username: 'admin_proceso', password: 'Reinicio-Seguro-2026' };

/**
 * A real server process, as `npm start` runs it (`node --import tsx server/src/server.ts`, serving the
 * built web from web/dist), on a free port, a throwaway database and a data folder of its own, with no
 * Redis. It can be stopped with any signal and started again on the same port, database and JWT
 * secret, like a restarted server. Spawning and waiting for health is the server tests' own
 * `startServerProcess`; this adds the throwaway database, the first administrator and API calls.
 */
export class ServerProcess {
  private constructor(
    private readonly child: SupportServerProcess,
    readonly databaseUrl: string,
    private readonly dataDir: string,
  ) {}

  /** Makes a process on a free port and a new database, and starts it. */
  static async create(): Promise<ServerProcess> {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'concurso-restart-'));
    const databaseUrl = `${SERVER_URL}concurso_test_${randomBytes(5).toString('hex')}`;
    const child = await startServerProcess({
      port: await freePort(),
      cwd: REPO_ROOT,
      env: {
        // Empty counts as unset: this process is alone, with the in-memory adapter.
        REDIS_URL: '',
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        // The same secret on every start: tokens issued before a restart stay valid after it.
        JWT_SECRET: 'secreto-de-reinicio-0123456789abcdef0123456789',
        ADMIN_USERNAME: PROCESS_ADMIN.username,
        ADMIN_PASSWORD: PROCESS_ADMIN.password,
        LOG_LEVEL: 'warn',
      },
    });
    return new ServerProcess(child, databaseUrl, dataDir);
  }

  /** `http://127.0.0.1:<port>` */
  get url(): string {
    return this.child.url;
  }

  /** Starts the process again; resolves once `GET /api/health` answers 200 (rejects if it exits first). */
  start(): Promise<void> {
    return this.child.start();
  }

  /** Sends `signal` and resolves once the process has exited. */
  stop(signal: NodeJS.Signals): Promise<void> {
    return this.child.kill(signal);
  }

  /** Stops the process (SIGTERM) and removes its database and data folder. */
  async dispose(): Promise<void> {
    await this.child.stop();
    await dropDatabase(this.databaseUrl);
    await rm(this.dataDir, { recursive: true, force: true });
  }

  /** Calls the API as `token` (GET without a body, POST with one); rejects on an answer outside 2xx. */
  async api<T = unknown>(url: string, token?: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}${url}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => null)) as T;
    if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  /** Signs in through the API; answers the bearer token. */
  async login(username: string, password: string): Promise<string> {
    return (await this.api<{ access_token: string }>('/api/auth/login', undefined, { username, password }))
      .access_token;
  }
}
