import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';

const run = promisify(execFile);

/**
 * The embedded database of a single laptop (docs/design.md section 7): when `DATABASE_URL` is not
 * set and nothing answers on the default address, `npm start` runs a private MariaDB/MySQL server from
 * the machine's own binaries, with its data in `DATA_DIR/mysql`, a Unix socket there and no network
 * port, and stops it when it stops. A second start finds the data and reuses it.
 *
 * It is the server's alone (README, "Base de datos integrada"): `DATA_DIR/mysql` is 0700 with the socket
 * inside it; started as root, the database runs as the machine's `mysql` account (created when missing)
 * and owns that folder; `secure_file_priv` is an empty folder of its own (`DATA_DIR/mysql-files`), so
 * `SELECT … INTO OUTFILE` cannot write anywhere else, and its temporary files go to another
 * (`DATA_DIR/mysql-tmp`), not `/tmp`; and the database's root needs a random password kept in
 * `DATA_DIR/mysql-root-password` (0600, the server's own account). Only when a folder above `DATA_DIR`
 * keeps the `mysql` account out (a checkout under `/root`, the README's `npm start` as root) does it run
 * as root instead, everything else the same, and `warning` says so.
 */
export interface EmbeddedDatabase {
  /** `mysql://root:<password>@localhost/concurso?socketPath=…`: what the server connects to. Never log it (`safeUrl`). */
  url: string;
  /** The data folder (`DATA_DIR/mysql`). */
  dir: string;
  /** The server binary that runs it. */
  binary: string;
  /** true when a server of this folder was already running (a stop that was cut): it is left running. */
  reused: boolean;
  /**
   * One Spanish line to print beside the start line when this start runs the database as root (a
   * folder above `DATA_DIR` keeps the `mysql` account out: `rootFallbackWarning`); null otherwise.
   */
  warning: string | null;
  /** Stops the server (SIGTERM, then SIGKILL after 30 s); nothing when it was already running. */
  stop(): Promise<void>;
}

/** What to say when no server binary is found (one Spanish line, docs/design.md section 7). */
export const NO_DATABASE_SERVER =
  'No hay MySQL/MariaDB en 127.0.0.1:3306 ni un servidor instalado para la base de datos integrada: ' +
  'instale MariaDB (Debian/Ubuntu: sudo apt-get install mariadb-server; macOS: brew install mariadb) ' +
  'o indique DATABASE_URL.';

/** The machine account that runs the database when the server runs as root (Debian's packages create it). */
const DATABASE_ACCOUNT = 'mysql';
/** File of `DATA_DIR` holding the database root's password (mode 0600). */
const ROOT_PASSWORD_FILE = 'mysql-root-password';
/** Folder of `DATA_DIR` that is the database's `secure_file_priv`: empty, 0700, the database's account. */
const FILES_DIR = 'mysql-files';
/**
 * Folder of `DATA_DIR` that is the database's `tmpdir` (0700, the database's account): a server starting
 * with `/tmp` as its tmpdir deletes every `#sql*` file there, so another MariaDB of the machine (or of a
 * test) starting meanwhile would break this one's temporary tables, its first initialisation included.
 */
const TMP_DIR = 'mysql-tmp';

/**
 * The warning when the database runs as root because `account` cannot enter `folder`, a folder above
 * `DATA_DIR` (README, "Base de datos integrada"): the fix is a `DATA_DIR` outside it.
 */
function rootFallbackWarning(account: string, folder: string): string {
  return (
    `La base de datos integrada corre como root porque la cuenta ${account} no puede entrar en ${folder}; ` +
    'para que corra con su propia cuenta use un DATA_DIR fuera de esa carpeta (por ejemplo /var/lib/concurso).'
  );
}

/** Longest Unix socket path the systems accept (108 bytes on Linux, 104 on macOS, with the NUL). */
const MAX_SOCKET_PATH = 103;
/** How long the server may take to answer after it starts (ms): InnoDB's first start, a slow disk. */
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
/** MySQL's "Access denied for user" (the server answered, the password did not fit). */
const ER_ACCESS_DENIED = 1045;

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

/** The account the database runs as (`--user=`), with its ids for chown. */
interface Account {
  name: string;
  uid: number;
  gid: number;
}

/**
 * The machine's `mysql` account, created as a system account without home or shell when missing
 * (`useradd --system`); null when this process is not root (the database then runs as this process's
 * own user, the only one it can run as).
 */
async function databaseAccount(): Promise<Account | null> {
  if (process.getuid?.() !== 0) return null;
  const ids = async (): Promise<Account> => {
    const [uid, gid] = await Promise.all([
      run('id', ['-u', DATABASE_ACCOUNT]),
      run('id', ['-g', DATABASE_ACCOUNT]),
    ]);
    return { name: DATABASE_ACCOUNT, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  try {
    return await ids();
  } catch {
    await run('useradd', [
      '--system',
      '--user-group',
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      DATABASE_ACCOUNT,
    ]);
    return await ids();
  }
}

/** Whether `account` may enter folder `dir`, asked of the kernel by a process of that account. */
async function canEnter(account: Account, dir: string): Promise<boolean> {
  try {
    await run('test', ['-x', dir], { uid: account.uid, gid: account.gid });
    return true;
  } catch {
    return false;
  }
}

/**
 * The first folder above `dataDir` (from `/` down) that `account` cannot enter, or null when it may
 * enter them all. Such a folder (`/root`, 0700) is not the server's to open.
 */
async function closedFolderAbove(account: Account, dataDir: string): Promise<string | null> {
  const above: string[] = [];
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    above.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  for (const dir of above) {
    if (!(await canEnter(account, dir))) return dir;
  }
  return null;
}

/**
 * Lets `account`, which may enter every folder above `dataDir`, reach `dataDir/mysql`: `DATA_DIR` is the
 * server's own, so when it keeps the account out (a 0700 folder) its group becomes the account's with
 * only the right to enter (`--x`).
 */
async function letThrough(account: Account, dataDir: string): Promise<void> {
  if (!(await canEnter(account, dataDir))) {
    const { uid, mode } = statSync(dataDir);
    chownSync(dataDir, uid, account.gid);
    chmodSync(dataDir, (mode & 0o7707) | 0o010);
  }
}

/** The database root's password kept in `file` (mode 0600, this process's account), created when missing. */
function rootPassword(file: string): string {
  if (existsSync(file)) {
    chmodSync(file, 0o600);
    const kept = readFileSync(file, 'utf8').trim();
    if (kept) return kept;
  }
  const password = randomBytes(24).toString('base64url');
  writeFileSync(file, password + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return password;
}

/**
 * How the server on `socketPath` answers root: with `password`, with no password (a folder or a server
 * of a version before the password), refusing both, or not at all.
 */
async function rootAnswers(
  socketPath: string,
  password: string,
): Promise<'password' | 'empty' | 'denied' | 'down'> {
  if (!existsSync(socketPath)) return 'down';
  const tryWith = async (pass: string): Promise<'ok' | 'denied' | 'down'> => {
    try {
      const conn = await mysql.createConnection({
        socketPath,
        user: 'root',
        password: pass,
        connectTimeout: 2_000,
      });
      await conn.end();
      return 'ok';
    } catch (err) {
      return (err as { errno?: number }).errno === ER_ACCESS_DENIED ? 'denied' : 'down';
    }
  };
  const withPassword = await tryWith(password);
  if (withPassword !== 'denied') return withPassword === 'ok' ? 'password' : 'down';
  return (await tryWith('')) === 'ok' ? 'empty' : 'denied';
}

/**
 * Gives every root account of the server on `socketPath`, reachable with no password (a new folder, or
 * one of a version before the password), `password`, and drops anonymous accounts.
 */
async function setRootPassword(socketPath: string, password: string): Promise<void> {
  const conn = await mysql.createConnection({
    socketPath,
    user: 'root',
    password: '',
    connectTimeout: 5_000,
  });
  try {
    const [accounts] = await conn.query(
      "SELECT User AS name, Host AS host FROM mysql.user WHERE User IN ('root', '')",
    );
    for (const { name, host } of accounts as Array<{ name: string; host: string }>) {
      if (name === '') await conn.query('DROP USER ?@?', [name, host]);
      else await conn.query('ALTER USER ?@? IDENTIFIED BY ?', [name, host, password]);
    }
  } catch (err) {
    // The server's messages may quote the statement, password included: never let it reach a log line.
    throw new Error(
      `No se pudo poner la clave a root en la base de datos integrada: ${(err as Error).message.split(password).join('***')}`,
    );
  } finally {
    await conn.end().catch(() => undefined);
  }
}

/** Shuts down the server on `socketPath` whose root has no password, and waits until it has ended. */
async function shutDown(socketPath: string, pidFile: string): Promise<void> {
  try {
    const conn = await mysql.createConnection({
      socketPath,
      user: 'root',
      password: '',
      connectTimeout: 5_000,
    });
    await conn.query('SHUTDOWN').finally(() => conn.end().catch(() => undefined));
  } catch (err) {
    throw new Error(
      `No se pudo detener la base de datos integrada que seguía en marcha: ${(err as Error).message}`,
    );
  }
  await waitForEnd(pidFile, STOP_TIMEOUT_MS);
}

/** Waits until the server whose pid file is `pidFile` has ended (it removes that file last), at most `ms`. */
async function waitForEnd(pidFile: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (existsSync(pidFile) && Date.now() < deadline) {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    try {
      if (pid > 0) process.kill(pid, 0);
      else break;
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Creates the system tables of a new data folder, with root reachable without a password on the socket;
 * `serverArgs` go to the server (`--tmpdir`, `--user`).
 */
async function initialise(binary: string, dir: string, serverArgs: string[]): Promise<void> {
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
        // Given a --user, mariadb-install-db also hands the machine's PAM helper folder
        // (plugin/auth_pam_tool_dir) to that account: never to root. As root without --user it
        // initialises as root, which is what --user=root would do.
        ...serverArgs.filter((arg) => arg !== '--user=root'),
      ],
      { timeout: 120_000 },
    );
  } else {
    await run(binary, ['--no-defaults', '--initialize-insecure', `--datadir=${dir}`, ...serverArgs], {
      timeout: 120_000,
    });
  }
}

/**
 * Starts (or, when it already runs, reuses) the private server of `dataDir` with `binary`: makes
 * `dataDir/mysql` (0700), `dataDir/mysql-files` (0700, the server's `secure_file_priv`) and
 * `dataDir/mysql-tmp` (0700, its `tmpdir`), all owned by the account the server runs as, initialises
 * the folder on the first start, runs the server on `dataDir/mysql/mysqld.sock` with networking off,
 * waits until it answers, and gives the database's root accounts the password of
 * `dataDir/mysql-root-password` if they have none (created on the first start).
 * That account is this process's own, except as root: then the `mysql` account, or root itself
 * (`--user=root`, with `warning` set) when a folder above `dataDir` keeps `mysql` out. The folders are
 * handed to that account with `chown -R` on every start, so a folder an earlier start (or an older
 * version) left to the other one works either way. A server of this folder left running is reused
 * when it takes that password (no warning: this start did not choose its account); one of an older
 * version (root without a password) is shut down and started again as above.
 * @throws with one Spanish line when the folder cannot hold the socket or be prepared, the server cannot
 *   be set up, it does not answer within a minute (its log is `dataDir/mysql/error.log`), or it refuses
 *   the kept password.
 */
export async function startEmbeddedDatabase(dataDir: string, binary: string): Promise<EmbeddedDatabase> {
  const base = path.resolve(dataDir);
  const dir = path.join(base, 'mysql');
  const filesDir = path.join(base, FILES_DIR);
  const tmpDir = path.join(base, TMP_DIR);
  const socketPath = path.join(dir, 'mysqld.sock');
  const pidFile = path.join(dir, 'mysqld.pid');
  const refused = new Error(
    `La base de datos integrada de ${dir} no acepta la clave de ${path.join(base, ROOT_PASSWORD_FILE)}; ` +
      'restaure ese archivo o indique DATABASE_URL.',
  );
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    throw new Error(
      `La ruta de DATA_DIR es demasiado larga para el socket de la base de datos integrada (${socketPath}); use una más corta o indique DATABASE_URL.`,
    );
  }
  mkdirSync(base, { recursive: true });
  const password = rootPassword(path.join(base, ROOT_PASSWORD_FILE));
  const url =
    `mysql://root:${encodeURIComponent(password)}@localhost/concurso` +
    `?socketPath=${encodeURIComponent(socketPath)}`;

  // A server of this folder left running (the last stop was cut): use it as it is. One of a version
  // before the password runs as root with no secure_file_priv: stop it and start it as below.
  const running = await rootAnswers(socketPath, password);
  if (running === 'password') {
    return { url, dir, binary, reused: true, warning: null, stop: async () => undefined };
  }
  if (running === 'denied') throw refused;
  if (running === 'empty') await shutDown(socketPath, pidFile);

  let asUser: string[] = [];
  let warning: string | null = null;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    mkdirSync(filesDir, { recursive: true, mode: 0o700 });
    mkdirSync(tmpDir, { recursive: true, mode: 0o700 });
    for (const folder of [dir, filesDir, tmpDir]) chmodSync(folder, 0o700);
    const account = await databaseAccount();
    if (account) {
      // A checkout under /root run as root with the default DATA_DIR=./data: the mysql account cannot
      // reach the folder, and the README's `npm start` must still work. The database then runs as root
      // (mariadbd refuses root unless told --user=root), with the same 0700 folders, socket inside,
      // secure_file_priv and password; only the account differs, and the warning says so.
      const closed = await closedFolderAbove(account, base);
      const owner = closed ? { name: 'root', uid: 0, gid: process.getgid?.() ?? 0 } : account;
      // Also what hands over a folder an earlier start (or an older version) left to the other account;
      // root could read it as it is, but the files it writes would then have mixed owners.
      await run('chown', ['-R', `${owner.uid}:${owner.gid}`, dir, filesDir, tmpDir]);
      if (closed) warning = rootFallbackWarning(account.name, closed);
      else await letThrough(account, base);
      asUser = [`--user=${owner.name}`];
    }
  } catch (err) {
    throw new Error(
      `No se pudo preparar la base de datos integrada en ${dir}: ${(err as Error).message.split('\n')[0]}`,
    );
  }
  if (!existsSync(path.join(dir, 'mysql'))) {
    try {
      await initialise(binary, dir, [`--tmpdir=${tmpDir}`, ...asUser]);
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
      `--pid-file=${pidFile}`,
      `--log-error=${path.join(dir, 'error.log')}`,
      `--secure-file-priv=${filesDir}`,
      `--tmpdir=${tmpDir}`,
      '--character-set-server=utf8mb4',
      '--collation-server=utf8mb4_unicode_ci',
      ...asUser,
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let alive = true;
  void exited.then(() => (alive = false));
  const stop = async () => {
    if (!alive) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  let answer: Awaited<ReturnType<typeof rootAnswers>>;
  while ((answer = await rootAnswers(socketPath, password)) === 'down') {
    if (!alive || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `La base de datos integrada no arrancó (${binary}); vea ${path.join(dir, 'error.log')} o indique DATABASE_URL.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  try {
    // A new folder, or one of an older version: root has no password yet. Only this account and the
    // database's can reach the socket meanwhile (the folder is 0700).
    if (answer === 'empty') await setRootPassword(socketPath, password);
    if ((await rootAnswers(socketPath, password)) !== 'password') throw refused;
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, dir, binary, reused: false, warning, stop };
}
