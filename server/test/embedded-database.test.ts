import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * What runs inside the namespace: the product as `npm start` runs it (the built server), twice on one
 * fresh `DATA_DIR`, with no `DATABASE_URL`; it answers what it saw as one JSON line.
 */
const DRIVER = String.raw`
import { execFileSync, spawn } from 'node:child_process';
const [rootDir, dataDir] = process.argv.slice(2);
const port = 3999;
const base = 'http://127.0.0.1:' + port;
execFileSync('ip', ['link', 'set', 'lo', 'up']);
const running = () => {
  try { return execFileSync('pgrep', ['-f', dataDir + '/mysql'], { encoding: 'utf8' }).trim() !== ''; } catch { return false; }
};
async function start(extraEnv = {}, dir = dataDir) {
  const lines = [];
  const child = spawn(process.execPath, ['--max-old-space-size=320', 'server/dist/server.js'], {
    cwd: rootDir,
    env: { ...extraEnv, PATH: process.env.PATH, DATA_DIR: dir, PORT: String(port), ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: 'Contrasena-Larga-2026', LOG_LEVEL: 'warn' },
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
  const stop = async () => { child.kill('SIGTERM'); const code = await exited; return { code, lines, databaseRunning: running() }; };
  return { call, stop };
}
const first = await start();
const created = await first.call('/api/createSchool', { name: 'Escuela Integrada' });
const firstStop = await first.stop();
const second = await start();
const schools = await second.call('/api/getSchools');
const secondStop = await second.stop();
// With DATABASE_URL given (here the default address, where nothing answers) it never starts one.
const given = spawn(process.execPath, ['server/dist/server.js'], {
  cwd: rootDir,
  env: { PATH: process.env.PATH, DATA_DIR: dataDir + '/given', PORT: String(port), DATABASE_URL: 'mysql://root@127.0.0.1:3306/concurso' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let givenOutput = '';
given.stdout.on('data', (d) => (givenOutput += d));
given.stderr.on('data', (d) => (givenOutput += d));
const givenCode = await new Promise((resolve) => given.once('exit', resolve));
const givenDatabase = (await import('node:fs')).existsSync(dataDir + '/given/mysql');
console.log(JSON.stringify({ created: created.status, firstStop, found: schools.text.includes('Escuela Integrada'), secondStop, givenCode, givenOutput, givenDatabase }));
`;

/**
 * DESIGN.md section 7 (issue 27): with `DATABASE_URL` unset and nothing answering on the default
 * address, `npm start` runs a private MariaDB of the machine's own binaries with its data in
 * `DATA_DIR/mysql` and no network port, says so in one line, stops it when it stops, and a second start
 * finds the data; with `DATABASE_URL` set it never starts one. The shared MariaDB answers on 127.0.0.1:3306 here, so the product runs in a network
 * namespace of its own (`unshare --net`: only a loopback of its own, where nothing answers).
 */
describe('the embedded database of a single laptop (issue 27)', () => {
  it('starts a private MariaDB on a fresh DATA_DIR, keeps what was saved across a restart, and stops it', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'concurso-embebida-'));
    const driver = path.join(dataDir, 'driver.mjs');
    await writeFile(driver, DRIVER);
    try {
      const { stdout } = await run('unshare', ['--net', '--fork', process.execPath, driver, root, dataDir], {
        timeout: 240_000,
        maxBuffer: 10_000_000,
      });
      const result = JSON.parse(stdout.trim().split('\n').pop()!) as {
        created: number;
        found: boolean;
        firstStop: { code: number; lines: string[]; databaseRunning: boolean };
        secondStop: { code: number; lines: string[]; databaseRunning: boolean };
        givenCode: number;
        givenOutput: string;
        givenDatabase: boolean;
      };
      expect(result.created, JSON.stringify(result.firstStop.lines)).toBe(200);
      expect(result.firstStop.lines.filter((line) => line.startsWith('Base de datos integrada:'))).toEqual([
        expect.stringContaining(`${dataDir}/mysql, sin puerto de red`),
      ]);
      expect(result.firstStop).toMatchObject({ code: 0, databaseRunning: false });
      // The second start reuses the data: the school saved by the first is there.
      expect(result.found).toBe(true);
      expect(result.secondStop).toMatchObject({ code: 0, databaseRunning: false });
      // DATABASE_URL set: never an embedded one, one Spanish line instead.
      expect(result.givenCode).toBe(1);
      expect(result.givenOutput.trim().split('\n')).toEqual([
        expect.stringMatching(/^No se pudo conectar a MySQL en /),
      ]);
      expect(result.givenDatabase).toBe(false);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
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
