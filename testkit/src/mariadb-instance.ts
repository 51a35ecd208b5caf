import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { freePort } from './waiting.js';
import { exitOf, onProcessExit, toolEnv, type DaemonInstance } from './processes.js';

/**
 * A MariaDB server of a test's own (docs/design.md section 8: the fault suite kills and freezes its own
 * database, never the shared one on 3306): a fresh datadir from `mariadb-install-db` under
 * `os.tmpdir()`, `mariadbd` on a free loopback port, `root@127.0.0.1` without a password.
 */
export interface MariaDbInstance extends DaemonInstance {
  /** `mysql://root@127.0.0.1:<port>/` (no database). */
  readonly serverUrl: string;
  /** The temporary folder holding the datadir, socket, pid and error log (removed by `destroy`). */
  readonly dir: string;
  /** True between `freeze()` and `thaw()`. */
  readonly frozen: boolean;
  /** `mysql://root@127.0.0.1:<port>/<database>`. After `kill()`, InnoDB recovers on the next `start()`. */
  url(database: string): string;
}

/** Options of `startMariaDb`. */
export interface MariaDbOptions {
  /** Port to listen on (default: a free one). */
  port?: number;
  /** How long to wait for the server to accept connections, in ms (default 30 000). */
  readyTimeoutMs?: number;
}

/** Runs `command args` to completion; rejects with its output when it fails. */
function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: toolEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('error', (err) =>
      reject(new Error(`${command} could not run (${err.message}); install MariaDB (mariadb-server).`)),
    );
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}:\n${output.slice(-2_000)}`)),
    );
  });
}

/**
 * Creates a datadir and starts a MariaDB of the test's own on it. Small and quick: 64 MB buffer pool,
 * 8 MB redo log, no binary log, no name resolution. Call `destroy()` when done (an exit hook does it
 * too, should the test process end first).
 * @throws when `mariadb-install-db` or `mariadbd` is missing or the server does not come up.
 */
export async function startMariaDb(options: MariaDbOptions = {}): Promise<MariaDbInstance> {
  const port = options.port ?? (await freePort());
  const readyTimeoutMs = options.readyTimeoutMs ?? 30_000;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'concurso-mariadb-'));
  const datadir = path.join(dir, 'data');
  const errorLog = path.join(dir, 'error.log');
  // mariadbd refuses to run as root unless told to; as any other user, `--user` names that user.
  const user = os.userInfo().username;
  const sizing = ['--innodb-buffer-pool-size=64M', '--innodb-log-file-size=8M', '--skip-name-resolve'];

  let child: ChildProcess | undefined;
  let frozen = false;
  let destroyed = false;
  const killNow = () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const removeExitHook = onProcessExit(() => {
    killNow();
    rmSync(dir, { recursive: true, force: true });
  });

  const ready = async () => {
    const deadline = Date.now() + readyTimeoutMs;
    for (;;) {
      if (!child || child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`mariadbd exited while starting:\n${logTail(20)}`);
      }
      try {
        const conn = await mysql.createConnection({
          host: '127.0.0.1',
          port,
          user: 'root',
          connectTimeout: 1_000,
        });
        await conn.query('select 1');
        await conn.end();
        return;
      } catch {
        if (Date.now() > deadline)
          throw new Error(`mariadbd accepted no connection in ${readyTimeoutMs} ms:\n${logTail(20)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const logTail = (lines = 30) => {
    try {
      return readFileSync(errorLog, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '(no error log)';
    }
  };

  const start = async () => {
    if (destroyed) throw new Error('this MariaDB instance was destroyed');
    if (child && child.exitCode === null && child.signalCode === null)
      throw new Error('mariadbd is already running');
    frozen = false;
    child = spawn(
      'mariadbd',
      [
        '--no-defaults',
        `--user=${user}`,
        `--datadir=${datadir}`,
        `--port=${port}`,
        '--bind-address=127.0.0.1',
        `--socket=${path.join(dir, 'mariadb.sock')}`,
        `--pid-file=${path.join(dir, 'mariadb.pid')}`,
        `--log-error=${errorLog}`,
        '--skip-log-bin',
        '--innodb-buffer-pool-load-at-startup=OFF',
        '--innodb-buffer-pool-dump-at-shutdown=OFF',
        ...sizing,
      ],
      { env: toolEnv(), stdio: 'ignore' },
    );
    child.once('error', () => undefined); // reported by `ready` as an early exit
    await ready();
  };

  const kill = async () => {
    const current = child;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const exited = exitOf(current);
    current.kill('SIGKILL');
    await exited;
    frozen = false;
  };

  try {
    await run('mariadb-install-db', [
      '--no-defaults',
      `--user=${user}`,
      `--datadir=${datadir}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      ...sizing,
    ]);
    await start();
  } catch (err) {
    killNow();
    removeExitHook();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  return {
    port,
    serverUrl: `mysql://root@127.0.0.1:${port}/`,
    dir,
    get running() {
      return Boolean(child && child.exitCode === null && child.signalCode === null);
    },
    get frozen() {
      return frozen;
    },
    url: (database) => `mysql://root@127.0.0.1:${port}/${database}`,
    kill,
    start,
    freeze() {
      child?.kill('SIGSTOP');
      frozen = true;
    },
    thaw() {
      child?.kill('SIGCONT');
      frozen = false;
    },
    logTail,
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      await kill(); // SIGKILL ends a stopped process too
      removeExitHook();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
