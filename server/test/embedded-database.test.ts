import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * What runs inside the namespace: the product as `npm start` runs it (the built server), with no
 * `DATABASE_URL`, several times on one fresh `DATA_DIR` inside a folder of its own (`outer`), the last
 * time with `outer` closed (0700, as `/root` is); and once, beside the first, on a fresh `DATA_DIR` under
 * a closed folder. It answers what it saw as one JSON line.
 */
const DRIVER = String.raw`
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
const [rootDir, dataDir] = process.argv.slice(2);
const outer = dataDir.slice(0, dataDir.lastIndexOf('/'));
const mysqlDir = dataDir + '/mysql';
const passwordFile = dataDir + '/mysql-root-password';
execFileSync('ip', ['link', 'set', 'lo', 'up']);
const running = () => {
  try { return execFileSync('pgrep', ['-f', dataDir + '/mysql'], { encoding: 'utf8' }).trim() !== ''; } catch { return false; }
};
// The machine's client on the socket of DATA_DIR dir, as root or as another local account (runuser).
const client = (sql, { as, password, dir = dataDir } = {}) => {
  const args = ['--no-defaults', '--socket=' + dir + '/mysql/mysqld.sock', '-uroot', '-N', '-B', ...(password ? ['--password=' + password] : []), '-e', sql];
  const r = as ? spawnSync('runuser', ['-u', as, '--', 'mariadb', ...args], { encoding: 'utf8' }) : spawnSync('mariadb', args, { encoding: 'utf8' });
  return { code: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
};
const owner = (file) => { const s = statSync(file); return { mode: (s.mode & 0o777).toString(8), uid: s.uid, gid: s.gid }; };
// What another local account and the database's own users can do while the embedded database of DATA_DIR
// dir runs.
const observe = (dir = dataDir) => {
  const password = readFileSync(dir + '/mysql-root-password', 'utf8').trim();
  const pid = readFileSync(dir + '/mysql/mysqld.pid', 'utf8').trim();
  const outfile = dir + '/escrito-por-la-base';
  return {
    password,
    dataDir: owner(dir),
    dir: owner(dir + '/mysql'),
    ibdata: owner(dir + '/mysql/ibdata1'),
    filesDir: owner(dir + '/mysql-files'),
    tmpDir: owner(dir + '/mysql-tmp'),
    tmpdir: client('SELECT @@tmpdir', { password, dir }).out,
    passwordFile: owner(dir + '/mysql-root-password'),
    serverUid: Number(readFileSync('/proc/' + pid + '/status', 'utf8').match(/^Uid:\s+(\d+)/m)[1]),
    securePriv: client('SELECT @@secure_file_priv', { password, dir }).out,
    emptyRoots: client("SELECT COUNT(*) FROM mysql.user WHERE user = '' OR (user = 'root' AND authentication_string = '')", { password, dir }).out,
    outfile: { ...client("SELECT 'x' INTO OUTFILE '" + outfile + "'", { password, dir }), written: existsSync(outfile) },
    nobody: client('SELECT 1', { as: 'nobody', dir }),
    rootNoPassword: client('SELECT 1', { dir }),
    rootWithPassword: client('SELECT 1', { password, dir }),
  };
};
async function start(extraEnv = {}, dir = dataDir, port = 3999) {
  const base = 'http://127.0.0.1:' + port;
  const lines = [];
  const child = spawn(process.execPath, ['--max-old-space-size=320', 'server/dist/server.js'], {
    cwd: rootDir,
    env: { PATH: process.env.PATH, DATA_DIR: dir, PORT: String(port), ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: 'Contrasena-Larga-2026', LOG_LEVEL: 'warn', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => lines.push(...String(d).split('\n').filter(Boolean)));
  child.stderr.on('data', (d) => lines.push(...String(d).split('\n').filter(Boolean)));
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 120000;
  for (;;) {
    const up = await fetch(base + '/api/health').then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('no arrancó: ' + lines.join(' | '));
    await new Promise((r) => setTimeout(r, 200));
  }
  const login = await fetch(base + '/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'Contrasena-Larga-2026' }) }).then((r) => r.json());
  const call = (url, body) => fetch(base + url, { method: body ? 'POST' : 'GET', headers: { authorization: 'Bearer ' + login.access_token, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) }).then(async (r) => ({ status: r.status, text: await r.text() }));
  const stop = async (signal = 'SIGTERM') => {
    child.kill(signal);
    const code = await exited;
    let databaseRunning = false;
    try { databaseRunning = execFileSync('pgrep', ['-f', dir + '/mysql'], { encoding: 'utf8' }).trim() !== ''; } catch {}
    return { code, lines, databaseRunning };
  };
  return { call, stop };
}
// A fresh DATA_DIR (info logs: the ready line names the database URL). Beside it (another port, to share
// the wait), the README's npm start as root in a checkout under /root (DATA_DIR=./data): a fresh DATA_DIR
// under a folder the mysql account cannot enter (0700, root's), initialised and run as root.
const closedDir = outer + '/cerrada';
mkdirSync(closedDir, { mode: 0o700 });
const freshRootDir = closedDir + '/datos';
const [first, freshRootRun] = await Promise.all([start({ LOG_LEVEL: 'info' }), start({ LOG_LEVEL: 'info' }, freshRootDir, 3997)]);
const created = await first.call('/api/createSchool', { name: 'Escuela Integrada' });
const fresh = observe();
const freshRootCreated = await freshRootRun.call('/api/createSchool', { name: 'Escuela en root' });
const freshRoot = observe(freshRootDir);
const freshRootStop = await freshRootRun.stop();
// Back to what a version before these rules left: root without a password, everything owned by root,
// the folder 755, no password file, no secure_file_priv folder and no tmp folder.
const rootHosts = client("SELECT host FROM mysql.user WHERE user = 'root'", { password: fresh.password }).out.split('\n');
const emptied = client('ALTER USER ' + rootHosts.map((host) => "'root'@'" + host + "' IDENTIFIED BY ''").join(', '), { password: fresh.password });
if (emptied.code !== 0 || client('SELECT 1').code !== 0) throw new Error('no se pudo quitar la clave: ' + emptied.err);
const firstStop = await first.stop();
execFileSync('chown', ['-R', 'root:root', dataDir]);
chmodSync(dataDir, 0o700);
chmodSync(mysqlDir, 0o755);
rmSync(passwordFile);
rmSync(dataDir + '/mysql-files', { recursive: true });
rmSync(dataDir + '/mysql-tmp', { recursive: true });
const second = await start();
const schools = await second.call('/api/getSchools');
const migrated = observe();
// A stop that is cut (SIGKILL): the database stays up and the next start reuses it with the kept password.
const secondStop = await second.stop('SIGKILL');
const third = await start();
const reusedSchools = await third.call('/api/getSchools');
const thirdStop = await third.stop();
execFileSync('kill', [readFileSync(mysqlDir + '/mysqld.pid', 'utf8').trim()]);
while (running()) await new Promise((r) => setTimeout(r, 200));
// The folder above DATA_DIR closed to the mysql account now: the folder mysql owned from the starts above
// is handed back to root, which runs the database on the same data.
chmodSync(outer, 0o700);
const fourth = await start({ LOG_LEVEL: 'info' });
const rootSchools = await fourth.call('/api/getSchools');
const asRoot = observe();
const fourthStop = await fourth.stop();
chmodSync(outer, 0o755);
// With DATABASE_URL given (here the default address, where nothing answers) it never starts one.
const given = spawn(process.execPath, ['server/dist/server.js'], {
  cwd: rootDir,
  env: { PATH: process.env.PATH, DATA_DIR: dataDir + '/given', PORT: '3999', DATABASE_URL: 'mysql://root@127.0.0.1:3306/concurso' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let givenOutput = '';
given.stdout.on('data', (d) => (givenOutput += d));
given.stderr.on('data', (d) => (givenOutput += d));
const givenCode = await new Promise((resolve) => given.once('exit', resolve));
const givenDatabase = existsSync(dataDir + '/given/mysql');
const mysqlAccount = { uid: Number(execFileSync('id', ['-u', 'mysql'], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', 'mysql'], { encoding: 'utf8' })) };
console.log(JSON.stringify({ created: created.status, firstStop, fresh, found: schools.text.includes('Escuela Integrada'), migrated, secondStop, reusedFound: reusedSchools.text.includes('Escuela Integrada'), thirdStop, asRoot, rootFound: rootSchools.text.includes('Escuela Integrada'), fourthStop, freshRoot, freshRootCreated: freshRootCreated.status, freshRootStop, mysqlAccount, givenCode, givenOutput, givenDatabase }));
`;

/** What the driver saw of the embedded database while it ran (modes in octal, owners as ids). */
interface Observed {
  password: string;
  dataDir: Owner;
  dir: Owner;
  ibdata: Owner;
  filesDir: Owner;
  tmpDir: Owner;
  tmpdir: string;
  passwordFile: Owner;
  serverUid: number;
  securePriv: string;
  emptyRoots: string;
  outfile: ClientRun & { written: boolean };
  nobody: ClientRun;
  rootNoPassword: ClientRun;
  rootWithPassword: ClientRun;
}
interface Owner {
  mode: string;
  uid: number;
  gid: number;
}
interface ClientRun {
  code: number;
  out: string;
  err: string;
}
interface Stopped {
  code: number;
  lines: string[];
  databaseRunning: boolean;
}

/** `seen` without the password, for the test's output. */
function withoutPassword(seen: Observed): Omit<Observed, 'password'> {
  const { password: _password, ...rest } = seen;
  return rest;
}

/**
 * docs/design.md section 7: with `DATABASE_URL` unset and nothing answering on the default
 * address, `npm start` runs a private MariaDB of the machine's own binaries with its data in
 * `DATA_DIR/mysql` and no network port, says so in one line, stops it when it stops, and a second start
 * finds the data; with `DATABASE_URL` set it never starts one. The database is the server's alone
 * (README, "Base de datos integrada"): run as the `mysql` account in a 0700 folder it owns, its root
 * behind a password kept 0600 in `DATA_DIR`, `secure_file_priv` an empty folder of its own; another
 * local account (`runuser -u nobody`) cannot reach its socket. A folder left by an older version (root's,
 * 755, root without a password) is handed over the same way, and a server left running by a cut stop is
 * reused with the kept password. Under a folder the `mysql` account cannot enter (a checkout under
 * `/root`) the start still works: the database runs as root, one Spanish line says why, everything else
 * as before, both for the folder `mysql` owned and for a fresh one. The shared MariaDB answers on
 * 127.0.0.1:3306 here, so the product runs in a network namespace of its own (`unshare --net`: only a
 * loopback of its own, where nothing answers).
 */
describe('the embedded database of a single laptop', () => {
  it('starts a private MariaDB only the server can reach, keeps what was saved across restarts (an older folder handed over, a cut stop reused, a folder the mysql account cannot reach run as root), and stops it', async () => {
    // DATA_DIR 0700 inside a folder of its own that the driver closes (0700) for the last two starts.
    const outer = await mkdtemp(path.join(os.tmpdir(), 'concurso-embebida-'));
    await chmod(outer, 0o755);
    const dataDir = path.join(outer, 'datos');
    await mkdir(dataDir, { mode: 0o700 });
    const driver = path.join(outer, 'driver.mjs');
    await writeFile(driver, DRIVER);
    try {
      const { stdout } = await run('unshare', ['--net', '--fork', process.execPath, driver, root, dataDir], {
        timeout: 240_000,
        maxBuffer: 10_000_000,
      });
      const result = JSON.parse(stdout.trim().split('\n').pop()!) as {
        created: number;
        found: boolean;
        reusedFound: boolean;
        fresh: Observed;
        migrated: Observed;
        mysqlAccount: { uid: number; gid: number };
        firstStop: Stopped;
        secondStop: Stopped;
        thirdStop: Stopped;
        asRoot: Observed;
        rootFound: boolean;
        fourthStop: Stopped;
        freshRoot: Observed;
        freshRootCreated: number;
        freshRootStop: Stopped;
        givenCode: number;
        givenOutput: string;
        givenDatabase: boolean;
      };
      expect(result.created, JSON.stringify(result.firstStop.lines)).toBe(200);
      expect(result.firstStop.lines.filter((line) => line.startsWith('Base de datos integrada:'))).toEqual([
        expect.stringContaining(`${dataDir}/mysql, sin puerto de red`),
      ]);
      expect(result.firstStop).toMatchObject({ code: 0, databaseRunning: false });
      // Printed for the record: what was observed.
      console.log(
        'base de datos integrada (nueva, la de una versión anterior, como root bajo una carpeta cerrada: la de mysql y una nueva):',
        JSON.stringify({
          mysql: result.mysqlAccount,
          fresh: withoutPassword(result.fresh),
          migrated: withoutPassword(result.migrated),
          asRoot: withoutPassword(result.asRoot),
          freshRoot: withoutPassword(result.freshRoot),
        }),
      );
      // A fresh folder, and one an older version left (root-owned, 755, root without a password),
      // end the same: the database's alone.
      for (const seen of [result.fresh, result.migrated]) {
        const account = { uid: result.mysqlAccount.uid, gid: result.mysqlAccount.gid };
        expect(seen.dir).toEqual({ mode: '700', ...account });
        expect(seen.ibdata).toMatchObject(account);
        expect(seen.filesDir).toEqual({ mode: '700', ...account });
        expect(seen.tmpDir).toEqual({ mode: '700', ...account });
        expect(seen.passwordFile).toEqual({ mode: '600', uid: 0, gid: 0 });
        // DATA_DIR (0700 from mkdtemp) lets only the database's group in, to reach its folder.
        expect(seen.dataDir).toEqual({ mode: '710', uid: 0, gid: result.mysqlAccount.gid });
        expect(seen.serverUid).toBe(result.mysqlAccount.uid);
        expect(seen.serverUid).not.toBe(0);
        expect(seen.securePriv).toBe(`${dataDir}/mysql-files/`);
        // Its temporary files in a folder of its own, not /tmp (where another server's start deletes them).
        expect(seen.tmpdir).toBe(`${dataDir}/mysql-tmp`);
        // The way to root through the database: writing a file outside secure_file_priv.
        expect(seen.outfile.code).not.toBe(0);
        expect(seen.outfile.err).toMatch(/secure-file-priv/);
        expect(seen.outfile.written).toBe(false);
        // Another local account cannot reach the socket; root needs the password.
        expect(seen.nobody.code).not.toBe(0);
        expect(seen.nobody.err).toMatch(/Can't connect to local server through socket .*\(13\)/);
        expect(seen.rootNoPassword.code).not.toBe(0);
        expect(seen.rootNoPassword.err).toMatch(
          /Access denied for user 'root'@'localhost' \(using password: NO\)/,
        );
        expect(seen.rootWithPassword).toMatchObject({ code: 0, out: '1' });
        // No root account (on any host) is left without a password, no anonymous account.
        expect(seen.emptyRoots).toBe('0');
      }
      // Under a folder the mysql account cannot enter (0700, root's, as /root is): the start works, the
      // database runs as root and one line says so naming that folder, both for a fresh DATA_DIR
      // (initialised as root) and for the folder mysql owned until its parent was closed (root's now, its
      // data kept). Every other protection stays.
      const rootWarning = (closed: string) =>
        `La base de datos integrada corre como root porque la cuenta mysql no puede entrar en ${closed}; ` +
        'para que corra con su propia cuenta use un DATA_DIR fuera de esa carpeta (por ejemplo /var/lib/concurso).';
      expect(result.freshRootCreated, JSON.stringify(result.freshRootStop.lines)).toBe(200);
      expect(result.rootFound).toBe(true);
      const closed = path.join(outer, 'cerrada');
      for (const [seen, stopped, dir, closedFolder] of [
        [result.freshRoot, result.freshRootStop, path.join(closed, 'datos'), closed],
        [result.asRoot, result.fourthStop, dataDir, outer],
      ] as const) {
        expect(stopped.lines.filter((line) => line.includes('integrada'))).toEqual([
          expect.stringMatching(
            new RegExp(`^Base de datos integrada: .* con los datos en ${dir}/mysql, sin puerto`),
          ),
          rootWarning(closedFolder),
        ]);
        expect(stopped).toMatchObject({ code: 0, databaseRunning: false });
        expect(seen.serverUid).toBe(0);
        expect(seen.dir).toEqual({ mode: '700', uid: 0, gid: 0 });
        expect(seen.ibdata).toMatchObject({ uid: 0, gid: 0 });
        expect(seen.filesDir).toEqual({ mode: '700', uid: 0, gid: 0 });
        expect(seen.tmpDir).toEqual({ mode: '700', uid: 0, gid: 0 });
        expect(seen.tmpdir).toBe(`${dir}/mysql-tmp`);
        expect(seen.passwordFile).toEqual({ mode: '600', uid: 0, gid: 0 });
        expect(seen.securePriv).toBe(`${dir}/mysql-files/`);
        expect(seen.outfile.code).not.toBe(0);
        expect(seen.outfile.err).toMatch(/secure-file-priv/);
        expect(seen.outfile.written).toBe(false);
        expect(seen.nobody.code).not.toBe(0);
        expect(seen.nobody.err).toMatch(/Can't connect to local server through socket .*\(13\)/);
        expect(seen.rootNoPassword.code).not.toBe(0);
        expect(seen.rootNoPassword.err).toMatch(
          /Access denied for user 'root'@'localhost' \(using password: NO\)/,
        );
        expect(seen.rootWithPassword).toMatchObject({ code: 0, out: '1' });
        expect(seen.emptyRoots).toBe('0');
      }
      // The folder mysql owned keeps its password; the fresh one gets its own. DATA_DIR's group is not
      // given to mysql when the database runs as root.
      expect(result.asRoot.password).toBe(result.migrated.password);
      expect(result.freshRoot.password).not.toBe(result.migrated.password);
      expect(result.freshRoot.dataDir).toMatchObject({ uid: 0, gid: 0 });
      // With the mysql account able to reach the folder, no such line.
      for (const stopped of [result.firstStop, result.secondStop, result.thirdStop]) {
        expect(stopped.lines.filter((line) => line.includes('corre como root'))).toEqual([]);
      }
      // A new password for the migrated folder (its file was gone), kept out of every line printed.
      expect(result.migrated.password).not.toBe(result.fresh.password);
      const printed = [
        result.firstStop,
        result.secondStop,
        result.thirdStop,
        result.fourthStop,
        result.freshRootStop,
      ].flatMap((stop) => stop.lines);
      for (const stopped of [result.firstStop, result.fourthStop, result.freshRootStop]) {
        expect(stopped.lines.some((line) => line.includes('root:***@localhost'))).toBe(true);
      }
      for (const password of [result.fresh.password, result.migrated.password, result.freshRoot.password]) {
        expect(printed.filter((line) => line.includes(password))).toEqual([]);
      }
      // The second start finds the data: the school saved by the first is there.
      expect(result.found).toBe(true);
      // Its stop cut (SIGKILL): the database stays up, and the third start reuses it with the password.
      expect(result.secondStop).toMatchObject({ databaseRunning: true });
      expect(result.reusedFound).toBe(true);
      expect(result.thirdStop.lines.filter((line) => line.startsWith('Base de datos integrada:'))).toEqual([
        expect.stringContaining('ya estaba en marcha'),
      ]);
      expect(result.thirdStop).toMatchObject({ code: 0, databaseRunning: true });
      // DATABASE_URL set: never an embedded one, one Spanish line instead.
      expect(result.givenCode).toBe(1);
      expect(result.givenOutput.trim().split('\n')).toEqual([
        expect.stringMatching(/^No se pudo conectar a MySQL en /),
      ]);
      expect(result.givenDatabase).toBe(false);
    } finally {
      await rm(outer, { recursive: true, force: true });
    }
  }, 300_000);

  it('says in one Spanish line how to install a server when the machine has none', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'concurso-sin-servidor-'));
    try {
      // A mount namespace of its own hides the machine's server binaries (/usr/sbin) from this start
      // only; its network namespace has nothing on 3306.
      const failed = await run(
        'unshare',
        [
          '--mount',
          '--net',
          '--fork',
          'sh',
          '-c',
          'mount -t tmpfs none /usr/sbin && exec "$0" server/dist/server.js',
          process.execPath,
        ],
        { cwd: root, env: { PATH: '/usr/bin:/bin', DATA_DIR: dataDir, PORT: '3998' }, timeout: 60_000 },
      ).then(
        () => null,
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(`${failed?.stdout}${failed?.stderr}`.trim().split('\n')).toEqual([
        expect.stringMatching(
          /^No hay MySQL\/MariaDB en 127\.0\.0\.1:3306 ni un servidor instalado .*apt-get install mariadb-server/,
        ),
      ]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
