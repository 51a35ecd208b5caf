/**
 * `npm run bench:startup [-- --runs 5] [-- <command> <args…>]`: how long a server command takes from
 * spawn to its first `GET /api/health` 200, the figure of the target "starts in under 2 s once built".
 * Default command: `node server/dist/server.js` (what `npm start` runs once built). Each run gets a
 * free port, the same throwaway database `concurso_startup_<random>` (the first run creates and
 * migrates it and is reported apart as `first_start_ms`), its own data folder and no Redis; the
 * command's whole process group is stopped (SIGTERM, SIGKILL after 10 s) before the next run. The
 * database is dropped at the end. Prints JSON (times in ms).
 *
 * Options: --runs N (5, warm runs after the first), --cwd DIR (where the command runs; default the
 * repository root), --mysql-url URL (server without a database; default TEST_DATABASE_URL or
 * `mysql://root@127.0.0.1:3306/`), --wait-quiet S (before each run, wait up to S seconds for the
 * machine to be under 30 % of one core busy; each run reports how busy it was just before, since a
 * start-up time is only as good as the machine is idle). Examples: `npm run bench:startup -- -- npm start`,
 * `npm run bench:startup -- -- node --import tsx server/src/server.ts`.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  dropDatabase,
  repoRoot,
  testServerUrl,
  throwawayDatabaseUrl,
  userPath,
} from '@concurso/testkit/environment';
import { freePort } from '@concurso/testkit/waiting';
import { machineBusy, waitForQuiet } from './load/proc-sampler.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '5' },
    cwd: { type: 'string', default: repoRoot },
    'mysql-url': { type: 'string', default: testServerUrl },
    'wait-quiet': { type: 'string', default: '0' },
  },
});
const [command = process.execPath, ...args] =
  positionals.length > 0 ? positionals : [process.execPath, 'server/dist/server.js'];
const RUNS = Number(values.runs);
const WAIT_QUIET_S = Number(values['wait-quiet']);
const cwd = userPath(values.cwd);
const databaseUrl = throwawayDatabaseUrl('concurso_startup', values['mysql-url']);
/** The command's process group while it runs: Ctrl+C must not leave a server behind. */
let running: number | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (running) process.kill(-running, 'SIGKILL');
    console.error(`stopped; drop ${databaseUrl} by hand`);
    process.exit(130);
  });
}

/** One start: spawn → health 200, in ms; then the process group is stopped. */
async function timeOneStart(dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command, args, {
    cwd,
    // Its own process group: `npm start` runs a shell and node below it, all stopped together.
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      REDIS_URL: '',
      DATA_DIR: dataDir,
      JWT_SECRET: 'secreto-de-arranque-0123456789abcdef0123456789',
      ADMIN_USERNAME: 'admin_arranque',
      ADMIN_PASSWORD: 'Arranque-Medido-2026',
      LOG_LEVEL: 'warn',
    },
  });
  running = child.pid;
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} exited while starting:\n${stderr}`);
      const status = await fetch(`http://127.0.0.1:${port}/api/health`)
        .then((res) => res.status)
        .catch(() => 0);
      if (status === 200) return performance.now() - started;
      if (performance.now() - started > 120_000) throw new Error(`not healthy in 120 s:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    running = undefined;
  }
}

/** How busy the machine is (% of one core, over 1 s), after waiting for it to calm down if asked. */
const busyBefore = () =>
  WAIT_QUIET_S > 0 ? waitForQuiet(WAIT_QUIET_S, 30, (line) => console.error(line)) : machineBusy();

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'concurso-startup-'));
try {
  const first = await timeOneStart(dataDir);
  const runs: number[] = [];
  const busy: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    busy.push(await busyBefore());
    runs.push(await timeOneStart(dataDir));
  }
  const sorted = [...runs].sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms);
  console.log(
    JSON.stringify(
      {
        command: [command === process.execPath ? 'node' : command, ...args].join(' '),
        cwd: cwd === repoRoot ? '.' : cwd,
        first_start_ms: round(first),
        runs_ms: runs.map(round),
        median_ms: round(sorted[Math.floor(sorted.length / 2)]!),
        min_ms: round(sorted[0]!),
        max_ms: round(sorted.at(-1)!),
        machine_busy_before_pct: busy.map(round),
        cores: os.availableParallelism(),
      },
      null,
      2,
    ),
  );
} finally {
  await dropDatabase(databaseUrl);
  await rm(dataDir, { recursive: true, force: true });
}
