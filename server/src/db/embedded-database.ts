import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';

const run = promisify(execFile);

/**
 * The embedded database of a single laptop (DESIGN.md section 7, issue 27): when `DATABASE_URL` is not
 * set and nothing answers on the default address, `npm start` runs a private MariaDB/MySQL server from
 * the machine's own binaries, with its data in `DATA_DIR/mysql`, a Unix socket there and no network
 * port, and stops it when it stops. A second start finds the data and reuses it.
 */
export interface EmbeddedDatabase {
  /** `mysql://root@localhost/concurso?socketPath=…`: what the server connects to. */
  url: string;
  /** The data folder (`DATA_DIR/mysql`). */
  dir: string;
  /** The server binary that runs it. */
  binary: string;
  /** true when a server of this folder was already running (a stop that was cut): it is left running. */
  reused: boolean;
  /** Stops the server (SIGTERM, then SIGKILL after 30 s); nothing when it was already running. */
  stop(): Promise<void>;
}

/** What to say when no server binary is found (one Spanish line, DESIGN.md section 7). */
export const NO_DATABASE_SERVER =
  'No hay MySQL/MariaDB en 127.0.0.1:3306 ni un servidor instalado para la base de datos integrada: ' +
  'instale MariaDB (Debian/Ubuntu: sudo apt-get install mariadb-server; macOS: brew install mariadb) ' +
  'o indique DATABASE_URL.';

/** Longest Unix socket path the systems accept (108 bytes on Linux, 104 on macOS, with the NUL). */
const MAX_SOCKET_PATH = 103;
/** How long the server may take to answer after it starts (ms): InnoDB's first start, a slow disk. */
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;

/** Whether something accepts TCP connections on `host:port` within `timeoutMs`. */
export function tcpAnswers(host: string, port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (answered: boolean) => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The first of `names` found in PATH or the usual server folders, or null. */
function findBinary(names: readonly string[]): string | null {
  const dirs = [
    ...(process.env.PATH ?? '').split(path.delimiter),
    '/usr/sbin',
    '/usr/local/sbin',
    '/usr/local/bin',
    '/usr/local/mysql/bin',
    '/opt/homebrew/sbin',
    '/opt/homebrew/bin',
  ].filter(Boolean);
  for (const name of names) {
    for (const dir of dirs) {
      const file = path.join(dir, name);
      if (existsSync(file)) return file;
    }
  }
  return null;
}

/** The machine's MariaDB/MySQL server binary (`mariadbd`, else `mysqld`), or null. */
export function findServerBinary(): string | null {
  return findBinary(['mariadbd', 'mysqld']);
}

/** Whether the server answers on `socketPath` as root without a password. */
async function socketAnswers(socketPath: string): Promise<boolean> {
  if (!existsSync(socketPath)) return false;
  try {
    const conn = await mysql.createConnection({ socketPath, user: 'root', connectTimeout: 2_000 });
    await conn.end();
    return true;
  } catch {
    return false;
  }
}

/** Creates the system tables of a new data folder, with root reachable without a password on the socket. */
async function initialise(binary: string, dir: string, asRoot: string[]): Promise<void> {
  const { stdout } = await run(binary, ['--version']);
  if (/mariadb/i.test(stdout)) {
    const installer = findBinary(['mariadb-install-db', 'mysql_install_db']);
    if (!installer) throw new Error(`No se encontró mariadb-install-db junto a ${binary}.`);
    await run(
      installer,
      [
        '--no-defaults',
        `--datadir=${dir}`,
        '--auth-root-authentication-method=normal',
        '--skip-test-db',
        ...asRoot,
      ],
      { timeout: 120_000 },
    );
  } else {
    await run(binary, ['--no-defaults', '--initialize-insecure', `--datadir=${dir}`, ...asRoot], {
      timeout: 120_000,
    });
  }
}

/**
 * Starts (or, when it already runs, reuses) the private server of `dataDir` with `binary`: initialises
 * `dataDir/mysql` on the first start, runs the server on `dataDir/mysql/mysqld.sock` with networking
 * off, and waits until it answers.
 * @throws with one Spanish line when the folder cannot hold the socket, the server cannot be set up, or
 *   it does not answer within a minute (its log is `dataDir/mysql/error.log`).
 */
export async function startEmbeddedDatabase(dataDir: string, binary: string): Promise<EmbeddedDatabase> {
  const dir = path.join(path.resolve(dataDir), 'mysql');
  const socketPath = path.join(dir, 'mysqld.sock');
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    throw new Error(
      `La ruta de DATA_DIR es demasiado larga para el socket de la base de datos integrada (${socketPath}); use una más corta o indique DATABASE_URL.`,
    );
  }
  const url = `mysql://root@localhost/concurso?socketPath=${encodeURIComponent(socketPath)}`;
  // A server of this folder left running (the last stop was cut): use it as it is.
  if (await socketAnswers(socketPath)) return { url, dir, binary, reused: true, stop: async () => undefined };

  mkdirSync(dir, { recursive: true });
  // As root the server must be told to stay root (it refuses otherwise); as anyone else it runs as them.
  const asRoot = process.getuid?.() === 0 ? ['--user=root'] : [];
  if (!existsSync(path.join(dir, 'mysql'))) {
    try {
      await initialise(binary, dir, asRoot);
    } catch (err) {
      throw new Error(
        `No se pudo preparar la base de datos integrada en ${dir}: ${(err as Error).message.split('\n')[0]}`,
      );
    }
  }
  const child: ChildProcess = spawn(
    binary,
    [
      '--no-defaults',
      `--datadir=${dir}`,
      `--socket=${socketPath}`,
      '--skip-networking',
      `--pid-file=${path.join(dir, 'mysqld.pid')}`,
      `--log-error=${path.join(dir, 'error.log')}`,
      '--character-set-server=utf8mb4',
      '--collation-server=utf8mb4_unicode_ci',
      ...asRoot,
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let running = true;
  void exited.then(() => (running = false));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await socketAnswers(socketPath))) {
    if (!running || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `La base de datos integrada no arrancó (${binary}); vea ${path.join(dir, 'error.log')} o indique DATABASE_URL.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    dir,
    binary,
    reused: false,
    stop: async () => {
      if (!running) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
