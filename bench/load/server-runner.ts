/**
 * Starts P real server processes (`node --import tsx server/src/server.ts`, what `npm start` runs
 * after the build) on consecutive free loopback ports and one throwaway database
 * `concurso_bench_<random>`, waits for `/api/health`, and stops them again and drops the database.
 * With P > 1 the processes share one JWT secret and fan out through Redis (DESIGN.md section 2).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';

/** What the runner needs. */
export interface ServerRunnerOptions {
  processes: number;
  /** MySQL server URL without a database, e.g. `mysql://root@127.0.0.1:3306/`. */
  mysqlServerUrl: string;
  /** Used when `processes` > 1. */
  redisUrl: string;
  adminUser: string;
  adminPassword: string;
  /** Extra node flags for the server processes (e.g. `--cpu-prof` to find where the time goes). */
  nodeFlags?: string[];
  /** Where the servers' stderr goes, line by line (prefixed with the port). */
  log: (line: string) => void;
}

/** Running servers. */
export interface RunningServers {
  /** `http://127.0.0.1:<port>`, one per process. */
  urls: string[];
  pids: number[];
  databaseUrl: string;
  /** SIGTERM, then SIGKILL after 10 s; drops the database and the data folder. Idempotent. */
  stop(): Promise<void>;
}

/** Whether `port` can be bound on every interface (the server listens on 0.0.0.0). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '0.0.0.0', () => probe.close(() => resolve(true)));
  });
}

/** The first of `count` consecutive free ports, from a random start in 20000..39999. */
export async function consecutiveFreePorts(count: number): Promise<number[]> {
  for (let tries = 0; tries < 200; tries++) {
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    const ports = Array.from({ length: count }, (_, i) => base + i);
    let free = true;
    for (const p of ports) if (!(await portFree(p))) free = false;
    if (free) return ports;
  }
  throw new Error(`no ${count} consecutive free ports`);
}

/** `mysql://host/` of a URL, whatever database it names. */
export function serverPart(url: string): string {
  return url.replace(/\/[^/]*$/, '/');
}

/** Drops `database` on the server of `mysqlServerUrl` (no error when missing). */
export async function dropDatabase(mysqlServerUrl: string, database: string): Promise<void> {
  const conn = await mysql.createConnection({ uri: serverPart(mysqlServerUrl) });
  try {
    await conn.query(`drop database if exists \`${database.replace(/`/g, '')}\``);
  } finally {
    await conn.end();
  }
}

const children = new Set<ChildProcess>();
// A crash of the load tester must not leave servers behind.
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/**
 * Starts the servers. The first one migrates the new database before the others start (migrations
 * run at start, one process at a time); then the rest start together.
 */
export async function startServers(options: ServerRunnerOptions): Promise<RunningServers> {
  const database = `concurso_bench_${randomBytes(5).toString('hex')}`;
  const databaseUrl = `${serverPart(options.mysqlServerUrl)}${database}`;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'concurso-bench-'));
  const ports = await consecutiveFreePorts(options.processes);
  const jwtSecret = randomBytes(48).toString('base64url');
  const mine: ChildProcess[] = [];

  const start = async (port: number): Promise<string> => {
    const child = spawn(
      process.execPath,
      [...(options.nodeFlags ?? []), '--import', 'tsx', 'server/src/server.ts'],
      {
        env: {
          ...process.env,
          PORT: String(port),
          DATABASE_URL: databaseUrl,
          ...(options.processes > 1 ? { REDIS_URL: options.redisUrl } : { REDIS_URL: '' }),
          DATA_DIR: dataDir,
          JWT_SECRET: jwtSecret,
          ADMIN_USERNAME: options.adminUser,
          ADMIN_PASSWORD: options.adminPassword,
          LOG_LEVEL: 'warn',
          LOGIN_RATE_LIMIT_MAX: '100000',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    children.add(child);
    mine.push(child);
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-8_000);
      for (const line of chunk.split('\n')) if (line.trim()) options.log(`[server :${port}] ${line}`);
    });
    child.once('exit', () => children.delete(child));
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server on ${port} exited: ${stderr}`);
      const health = await fetch(`${url}/api/health`).catch(() => null);
      if (health?.status === 200) return url;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`server on ${port} not healthy after 90 s: ${stderr}`);
  };

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await Promise.all(
      mine.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }),
    );
    await dropDatabase(databaseUrl, database).catch((err) =>
      options.log(`could not drop ${database}: ${(err as Error).message}`),
    );
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    const urls = [await start(ports[0]!)];
    urls.push(...(await Promise.all(ports.slice(1).map(start))));
    return { urls, pids: mine.map((c) => c.pid!), databaseUrl, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
