import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropDatabase } from '../server/src/db/database.js';
import { freePort } from '../server/test/helpers.js';

/** Server URL of the test MySQL/MariaDB, without a database (as in server/test/helpers.ts). */
const SERVER_URL = (process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/').replace(/\/[^/]*$/, '/');
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The first administrator a {@link ServerProcess} creates (ADMIN_USERNAME / ADMIN_PASSWORD). */
export const PROCESS_ADMIN = { username: 'admin_proceso', password: 'Reinicio-Seguro-2026' };

/**
 * A real server process, as `npm start` runs it (`node --import tsx server/src/server.ts`, serving the
 * built web from web/dist), on a free port, a throwaway database and a data folder of its own, with no
 * Redis. It can be stopped with any signal and started again on the same port, database and JWT
 * secret, like a restarted server.
 */
export class ServerProcess {
  private child: ChildProcess | null = null;
  private stderr = '';

  private constructor(
    readonly port: number,
    readonly databaseUrl: string,
    private readonly dataDir: string,
  ) {}

  /** Makes a process on a free port and a new database, and starts it. */
  static async create(): Promise<ServerProcess> {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'concurso-restart-'));
    const databaseUrl = `${SERVER_URL}concurso_test_${randomBytes(5).toString('hex')}`;
    const server = new ServerProcess(await freePort(), databaseUrl, dataDir);
    await server.start();
    return server;
  }

  /** `http://127.0.0.1:<port>` */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Spawns the process and resolves once `GET /api/health` answers 200 (rejects if it exits first). */
  async start(): Promise<void> {
    if (this.child) throw new Error('the server process is already running');
    // A Redis of the environment is left out: this process is alone, with the in-memory adapter.
    const { REDIS_URL: _redis, ...env } = process.env;
    this.stderr = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], {
      cwd: REPO_ROOT,
      env: {
        ...env,
        PORT: String(this.port),
        DATABASE_URL: this.databaseUrl,
        DATA_DIR: this.dataDir,
        // The same secret on every start: tokens issued before a restart stay valid after it.
        JWT_SECRET: 'secreto-de-reinicio-0123456789abcdef0123456789',
        ADMIN_USERNAME: PROCESS_ADMIN.username,
        ADMIN_PASSWORD: PROCESS_ADMIN.password,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr!.on('data', (chunk) => (this.stderr += chunk));
    this.child = child;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        this.child = null;
        throw new Error(`the server process exited while starting: ${this.stderr}`);
      }
      const health = await fetch(`${this.url}/api/health`).catch(() => null);
      if (health?.status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`the server process is not healthy after 60 s: ${this.stderr}`);
  }

  /** Sends `signal` and resolves once the process has exited. */
  async stop(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await exited;
  }

  /** Stops the process (SIGTERM) and removes its database and data folder. */
  async dispose(): Promise<void> {
    await this.stop('SIGTERM');
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
