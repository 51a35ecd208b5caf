/**
 * `npm run bench -- --screens <N> --agents <M> --duration <s> [--processes <P>] [--url <server>] --out <file.json>`
 *
 * The load tester (DESIGN.md section 6; issue 12, "Load tester" and "Definitions"; bench/README.md
 * defines every figure). Unless `--url` is given it starts P server processes itself on a throwaway
 * database (testkit's `startDeployment`) and pins them and itself to different CPUs (pinning.ts). Then:
 * seeds a contest, a coach, a judge, M teams and their agent keys through the API (seed.ts); opens N
 * screens, round-robin over the server processes, in tester processes: most are lean (lean-tester.ts:
 * bare ws, header only, ack), a sample are full socket.io-client screens applying every row as the web
 * does (full-tester.ts); runs M agents sending heartbeats and attempts at a steady total rate
 * (agents.ts) and a judge toggling teams (toggles.ts); measures push latency from the commit (every
 * screen) and from the request (full screens, matching.ts); compares the full screens' boards with the
 * database one second after the last change; samples the processes from /proc (proc-sampler.ts);
 * checks the database holds exactly the acknowledged attempts; then runs the equal-work baselines, the
 * same frames from a bare ws server (baseline-ws.ts) and the same grouped SQL from a bare mysql2 loop
 * (baseline-mysql.ts); and writes the JSON result and an HTML report beside it (report-html.ts).
 * The run is marked invalid (report and stderr) when the tester itself was the bottleneck (event-loop
 * utilisation of any tester process above 0.5) or its measure cannot be trusted. Progress goes to
 * stderr. Bounded in count and time; traffic only to 127.0.0.1. Times are ms unless a name says `_s`.
 * Measures; never fails because of a figure.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import mysql from 'mysql2/promise';
import { clockMs } from '@concurso/shared';
import { dropDatabase, throwawayDatabaseUrl, userPath } from '@concurso/testkit/environment';
import { startDeployment, type Deployment } from '@concurso/testkit/deployment';
import { consecutiveFreePorts } from '@concurso/testkit/waiting';
import { AgentFleet, type SimAgent } from './agents.js';
import { cloneDatabase, runMysqlBaselineProcess, type MysqlBaselineResult } from './baseline-mysql.js';
import { runWsBaseline, type WsBaselineResult } from './baseline-ws.js';
import { finalStateMismatches, type DatabaseTeam, type HeldRow } from './board-replica.js';
import { HttpClient } from './http.js';
import { matchPushes, type Change } from './matching.js';
import { Histogram, now, round } from './metrics.js';
import { allowedCpus, pinPlan, pinProcess, type PinPlan } from './pinning.js';
import { ProcSampler, findPids, machineBusy, mean, waitForQuiet } from './proc-sampler.js';
import { renderHtmlReport } from './report-html.js';
import { seed } from './seed.js';
import type { RecordedFrame, ScreenSpec, TesterResult } from './tester-protocol.js';
import { TesterProcess, tickTotals } from './testers.js';
import { TogglePump } from './toggles.js';

const USAGE = `npm run bench -- --screens N --agents M --duration S --out FILE.json [options]
  --processes P          server processes to start (default 1; P > 1 fans out through Redis)
  --url URL[,URL...]     use running server(s) instead (loopback only); needs --admin-user/--admin-password
                         (or BENCH_ADMIN_USER / BENCH_ADMIN_PASSWORD) and, for the database checks and
                         the mysql2 baseline, --database-url (or DATABASE_URL)
  --server-env KEY=VAL   environment for the started servers (repeatable), e.g. NODE_OPTIONS=--max-old-space-size=256
  --attempt-rate R       attempts per second over all agents (2000)
  --toggle-rate R        team blocks/unblocks per second (5)
  --batch-min/--batch-max attempts per POST (1..5)
  --concurrency C        attempts POSTs in flight at most; also the mysql2 baseline's requests in flight (64)
  --full-screens F       screens that are full socket.io-client boards, in their own process(es) (50; at most N-1)
  --full-processes K     processes holding the full screens (1)
  --tester-processes T   processes holding the lean screens (2)
  --client-deflate       lean screens offer permessage-deflate (off: inflating costs the tester CPU)
  --pin auto|off         servers on the first half of the CPUs, tester on the second (auto: when >= 2 CPUs and taskset)
  --ramp-batch B         screens connecting at once (100)
  --settle S             seconds after the last change before the boards are compared with the database (1)
  --grace S              at most S more seconds for late frames before collecting (5)
  --server-cpu-prof DIR  run the servers with --cpu-prof, profiles into DIR (investigation)
  --baseline-duration S  seconds of each baseline (min(duration, 20)); --no-baselines skips them
  --wait-quiet S         first wait up to S s for the machine to be quiet (< 30 % of one core busy) (0)
  --mysql-url URL        MySQL server for the throwaway databases (mysql://root@127.0.0.1:3306/)
  --redis-url URL        Redis for P > 1 (redis://127.0.0.1:6379)`;

let parsed;
try {
  parsed = parseArgs({
    options: {
      screens: { type: 'string', default: '20' },
      agents: { type: 'string', default: '10' },
      duration: { type: 'string', default: '30' },
      processes: { type: 'string', default: '1' },
      url: { type: 'string' },
      out: { type: 'string' },
      'admin-user': { type: 'string' },
      'admin-password': { type: 'string' },
      'database-url': { type: 'string' },
      'mysql-url': { type: 'string' },
      'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
      'server-env': { type: 'string', multiple: true, default: [] },
      'attempt-rate': { type: 'string', default: '2000' },
      'toggle-rate': { type: 'string', default: '5' },
      'batch-min': { type: 'string', default: '1' },
      'batch-max': { type: 'string', default: '5' },
      concurrency: { type: 'string', default: '64' },
      'full-screens': { type: 'string', default: '50' },
      'full-processes': { type: 'string', default: '1' },
      'tester-processes': { type: 'string', default: '2' },
      'client-deflate': { type: 'boolean', default: false },
      pin: { type: 'string', default: 'auto' },
      'ramp-batch': { type: 'string', default: '100' },
      settle: { type: 'string', default: '1' },
      grace: { type: 'string', default: '5' },
      'server-cpu-prof': { type: 'string' },
      'baseline-duration': { type: 'string' },
      'no-baselines': { type: 'boolean', default: false },
      'wait-quiet': { type: 'string', default: '0' },
      help: { type: 'boolean', default: false },
    },
  });
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
  process.exit(2);
}
const args = parsed.values;

if (args.help || !args.out) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(args.help ? 0 : 2);
}

const int = (name: string, value: string | undefined, min: number, max: number): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) {
    process.stderr.write(`--${name} must be a number in ${min}..${max}\n`);
    process.exit(2);
  }
  return n;
};
// Bounded in count and time.
const SCREENS = int('screens', args.screens, 1, 10_000);
const AGENTS = int('agents', args.agents, 1, 5_000);
const DURATION_S = int('duration', args.duration, 1, 600);
const PROCESSES = int('processes', args.processes, 1, 8);
const ATTEMPT_RATE = int('attempt-rate', args['attempt-rate'], 0, 100_000);
const TOGGLE_RATE = int('toggle-rate', args['toggle-rate'], 0, 1_000);
const BATCH_MIN = int('batch-min', args['batch-min'], 1, 500);
const BATCH_MAX = int('batch-max', args['batch-max'], BATCH_MIN, 500);
const CONCURRENCY = int('concurrency', args.concurrency, 1, 1_000);
const RAMP_BATCH = int('ramp-batch', args['ramp-batch'], 1, 10_000);
// At least one lean screen: it records the frames the ws baseline replays.
const FULL_SCREENS = Math.min(int('full-screens', args['full-screens'], 0, 10_000), SCREENS - 1);
const LEAN_SCREENS = SCREENS - FULL_SCREENS;
const TESTER_PROCESSES = Math.min(int('tester-processes', args['tester-processes'], 1, 32), LEAN_SCREENS);
const FULL_PROCESSES = Math.min(
  int('full-processes', args['full-processes'], 1, 16),
  Math.max(1, FULL_SCREENS),
);
const SETTLE_S = int('settle', args.settle, 0, 60);
const GRACE_S = int('grace', args.grace, 0, 120);
const WAIT_QUIET_S = int('wait-quiet', args['wait-quiet'], 0, 3_600);
const BASELINE_S = int(
  'baseline-duration',
  args['baseline-duration'] ?? String(Math.min(DURATION_S, 20)),
  1,
  600,
);
if (args.pin !== 'auto' && args.pin !== 'off') {
  process.stderr.write('--pin must be auto or off\n');
  process.exit(2);
}
const SERVER_ENV: Record<string, string> = {};
for (const pair of args['server-env'] ?? []) {
  const eq = pair.indexOf('=');
  if (eq <= 0) {
    process.stderr.write(`--server-env ${pair}: expected KEY=VALUE\n`);
    process.exit(2);
  }
  SERVER_ENV[pair.slice(0, eq)] = pair.slice(eq + 1);
}
const OUT = userPath(args.out);
const MYSQL_URL =
  args['mysql-url'] ??
  process.env.BENCH_MYSQL_URL ??
  process.env.TEST_DATABASE_URL ??
  'mysql://root@127.0.0.1:3306/';
/** Highest event-loop utilisation a tester process may show for the run to count (issue 12). */
const TESTER_ELU_MAX = 0.5;
/** A screen whose last frame is this much older than its server's newest delivery is stalled (ms). */
const STALL_MS = 1_000;

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `--url` list, loopback only: the load tester sends traffic to 127.0.0.1 and nowhere else. */
function externalUrls(): string[] | undefined {
  if (!args.url) return undefined;
  const urls = args.url.split(',').map((u) => u.trim().replace(/\/+$/, ''));
  for (const u of urls) {
    const host = new URL(u).hostname;
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) {
      log(`--url ${u}: only loopback servers (127.0.0.1) may be loaded`);
      process.exit(2);
    }
  }
  return urls.map((u) => u.replace('//localhost', '//127.0.0.1'));
}

interface Cleanup {
  servers?: Deployment;
  testers: TesterProcess[];
  fleet?: AgentFleet;
  toggles?: TogglePump;
  sampler?: ProcSampler;
  http?: HttpClient;
  scratchDatabase?: string;
}
const live: Cleanup = { testers: [] };
/** The process ids of the servers this run started (none with `--url`). */
const serverPids = () => live.servers?.servers.map((server) => server.pid!) ?? [];

async function cleanup(): Promise<void> {
  live.sampler?.stop();
  live.fleet?.stopHeartbeats();
  await live.fleet?.stopAttempts(2_000);
  await live.toggles?.stop(2_000);
  await Promise.all(live.testers.map((t) => t.stop(5_000).catch(() => undefined)));
  live.testers = [];
  live.http?.close();
  await live.servers?.stop();
  if (live.scratchDatabase) await dropDatabase(live.scratchDatabase).catch(() => undefined);
}

let aborting = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (aborting) return;
    aborting = true;
    log(`${signal}: stopping`);
    void cleanup().finally(() => process.exit(130));
  });
}

/** Attempts rows and counters of `teamIds`, read back from the database. */
async function countAttempts(databaseUrl: string, teamIds: number[]) {
  const conn = await mysql.createConnection({ uri: databaseUrl });
  try {
    const [[row]] = await conn.query<Array<mysql.RowDataPacket>>(
      'select (select count(*) from attempts where teams_id in (?)) as n, (select coalesce(sum(number_attempts), 0) from teams where id in (?)) as total',
      [teamIds, teamIds],
    );
    return { rows: Number(row!.n), sum: Number(row!.total) };
  } finally {
    await conn.end();
  }
}

/** The teams' compared columns as the database holds them now. */
async function databaseTeams(databaseUrl: string, teamIds: number[]): Promise<DatabaseTeam[]> {
  const conn = await mysql.createConnection({ uri: databaseUrl });
  try {
    const [rows] = await conn.query<Array<mysql.RowDataPacket>>(
      'select id, number_attempts, status_team_id as status_id from teams where id in (?)',
      [teamIds],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      number_attempts: Number(r.number_attempts),
      status_id: Number(r.status_id),
    }));
  } finally {
    await conn.end();
  }
}

/**
 * Mismatches of the expected full screens' boards (per full tester: each screen's rows, and which
 * screens were connected when traffic started) against `db`; null without full screens or database.
 */
function compareBoards(
  parts: Array<{ states: Array<Map<number, HeldRow>>; expected: Uint8Array }>,
  db: DatabaseTeam[] | null,
) {
  if (parts.length === 0 || !db) return null;
  let mismatches = 0;
  let compared = 0;
  for (const { states, expected } of parts) {
    states.forEach((held, i) => {
      if (expected[i] !== 1) return;
      mismatches += finalStateMismatches(held, db);
      compared += db.length;
    });
  }
  return { mismatches, compared };
}

async function main(): Promise<void> {
  const t0 = now();
  const ext = externalUrls();
  const adminUser = args['admin-user'] ?? process.env.BENCH_ADMIN_USER ?? (ext ? undefined : 'admin');
  const adminPassword =
    args['admin-password'] ??
    process.env.BENCH_ADMIN_PASSWORD ??
    (ext ? undefined : 'clave-banco-de-carga-2026');
  if (!adminUser || !adminPassword) {
    log('--url needs --admin-user and --admin-password (or BENCH_ADMIN_USER / BENCH_ADMIN_PASSWORD)');
    process.exit(2);
  }

  if (WAIT_QUIET_S > 0) log('waiting for a quiet machine…');
  const busyBefore = WAIT_QUIET_S > 0 ? await waitForQuiet(WAIT_QUIET_S, 30, log) : await machineBusy();
  log(`machine busy ${busyBefore.toFixed(0)} % of one core before the run`);

  let urls: string[];
  let databaseUrl: string | undefined;
  if (ext) {
    urls = ext;
    databaseUrl = args['database-url'] ?? process.env.DATABASE_URL;
    log(`using ${urls.join(', ')}`);
  } else {
    log(`starting ${PROCESSES} server process(es)…`);
    // The compiled server as `npm start` runs it; the first migrates the throwaway database alone.
    live.servers = await startDeployment({
      processes: PROCESSES,
      databaseUrl: throwawayDatabaseUrl('concurso_bench', MYSQL_URL),
      dropDatabase: true,
      redisUrl: PROCESSES > 1 ? args['redis-url']! : '',
      ports: await consecutiveFreePorts(PROCESSES),
      start: 'first',
      admin: { username: adminUser, password: adminPassword },
      env: { LOGIN_RATE_LIMIT_MAX: '100000', ...SERVER_ENV },
      onLine: log,
      nodeFlags: args['server-cpu-prof']
        ? ['--cpu-prof', `--cpu-prof-dir=${userPath(args['server-cpu-prof'])}`]
        : [],
    });
    urls = live.servers.urls;
    databaseUrl = live.servers.databaseUrl;
    log(`servers ready: ${urls.join(', ')} (pids ${serverPids().join(', ')}), database ${databaseUrl}`);
  }

  // Pinning: servers on the first half of the CPUs, this process (and the testers it forks) on the rest.
  const plan: PinPlan = ext
    ? { pinned: false, reason: 'external servers (--url)' }
    : pinPlan(args.pin === 'auto');
  if (plan.pinned) {
    try {
      for (const pid of serverPids()) pinProcess(pid, plan.servers);
      pinProcess(process.pid, plan.tester);
      log(
        `pinned: servers on CPU ${plan.servers}, load tester on CPU ${plan.tester} (MariaDB/Redis not pinned)`,
      );
    } catch (err) {
      log(`pinning failed, running unpinned: ${err instanceof Error ? err.message : String(err)}`);
      Object.assign(plan, { pinned: false, reason: 'taskset failed' });
    }
  } else log(`not pinned: ${plan.reason}`);

  const http = (live.http = new HttpClient(CONCURRENCY + 64));
  const seeded = await seed(http, { url: urls[0]!, adminUser, adminPassword, teams: AGENTS, log });
  const teamIds = seeded.teams.map((t) => t.id);

  const changes: Change[] = [];
  const onChange = (c: Change) => changes.push(c);
  const agents: SimAgent[] = seeded.teams.map((t, i) => ({
    teamId: t.id,
    key: t.key,
    url: urls[i % urls.length]!,
  }));
  const fleet = (live.fleet = new AgentFleet({
    http,
    agents,
    ratePerS: ATTEMPT_RATE,
    batchMin: BATCH_MIN,
    batchMax: BATCH_MAX,
    maxInFlight: CONCURRENCY,
    t0,
    onChange,
  }));
  await fleet.warmUp();
  fleet.startHeartbeats();
  log(`agents: ${agents.length} configured and online`);

  // Tester processes: T lean ones and, for the sample, K full ones.
  const lean = Array.from(
    { length: TESTER_PROCESSES },
    (_, k) => new TesterProcess('lean', `lean-${k + 1}`, t0),
  );
  const fulls =
    FULL_SCREENS > 0
      ? Array.from({ length: FULL_PROCESSES }, (_, k) => new TesterProcess('full', `full-${k + 1}`, t0))
      : [];
  const testers = [...lean, ...fulls];
  live.testers = testers;
  const testerCpus = Object.fromEntries([
    ['main', allowedCpus(process.pid)],
    ...testers.map((t) => [t.name, allowedCpus(t.pid)]),
  ]);

  const sampler = (live.sampler = new ProcSampler(
    serverPids(),
    {
      load_tester: [process.pid, ...testers.map((t) => t.pid)],
      mysql: findPids(['mariadbd', 'mysqld']),
      ...(urls.length > 1 ? { redis: findPids(['redis-server']) } : {}),
    },
    t0,
  ));
  sampler.start();

  // Screens: screen i talks to server i % P (a load balancer's round robin); the first F are full,
  // the others lean, lean screen j in lean tester j % T; the first lean screen records the frames.
  const specsOf = (from: number, to: number): ScreenSpec[] =>
    Array.from({ length: to - from }, (_, k) => ({ index: from + k, url: urls[(from + k) % urls.length]! }));
  const fullSpecs = fulls.map((_, t) => specsOf(0, FULL_SCREENS).filter((_, j) => j % fulls.length === t));
  const leanSpecs = lean.map((_, t) =>
    specsOf(FULL_SCREENS, SCREENS).filter((_, j) => j % lean.length === t),
  );
  const perTesterBatch = Math.max(1, Math.ceil(RAMP_BATCH / testers.length));
  const rampStarted = now();
  const rampLog = setInterval(() => {
    const t = tickTotals(testers);
    log(`screens: ${t.connected}/${SCREENS} connected, ${t.failed} failed`);
  }, 2_000);
  const connected = await Promise.all([
    ...lean.map((t, k) =>
      t.call(
        {
          type: 'connect',
          mode: 'socket.io',
          screens: leanSpecs[k]!,
          token: seeded.judgeToken,
          batch: perTesterBatch,
          record: k === 0,
          deflate: args['client-deflate']!,
        },
        'connected',
      ),
    ),
    ...fulls.map((t, k) =>
      t.call(
        {
          type: 'connect',
          mode: 'socket.io',
          screens: fullSpecs[k]!,
          token: seeded.judgeToken,
          batch: perTesterBatch,
          record: false,
          deflate: false,
        },
        'connected',
      ),
    ),
  ]);
  clearInterval(rampLog);
  const rampS = (now() - rampStarted) / 1000;
  const screensFailed = connected.reduce((a, c) => a + c.failed, 0);
  await sleep(1_000);

  // The run: every tester measures from here.
  const marked = await Promise.all(testers.map((t) => t.call({ type: 'mark' }, 'marked')));
  const expectedScreens = marked.reduce((a, m) => a + m.open, 0);
  /** Per full tester: which of its screens were connected when traffic started. */
  const fullExpected = marked.slice(lean.length).map((m) => m.openMask);
  log(
    `screens: ${expectedScreens} connected in ${rampS.toFixed(1)} s (${screensFailed} failed); traffic for ${DURATION_S} s`,
  );

  const toggles = (live.toggles = new TogglePump({
    http,
    urls,
    adminToken: seeded.adminToken,
    teamIds,
    ratePerS: TOGGLE_RATE,
    maxInFlight: 50,
    t0,
    onChange,
  }));
  const mainElu = performance.eventLoopUtilization();
  const runStart = now() - t0;
  fleet.start(runStart);
  const heartbeatsAtStart = fleet.heartbeats;
  toggles.start();
  const framesPerSecond: number[] = [];
  let prev = { acked: 0, toggles: 0 };
  const progress = setInterval(() => {
    const cur = { acked: fleet.attemptsAcked, toggles: toggles.acked };
    const ticks = tickTotals(testers);
    framesPerSecond.push(ticks.frames);
    const s = sampler.samples.at(-1);
    log(
      `t=${Math.round((now() - t0 - runStart) / 1000)}s attempts ${cur.acked - prev.acked}/s (acked ${cur.acked}, in flight ${fleet.inFlight}, skipped ${fleet.skipped}, errors ${fleet.errors})` +
        ` toggles ${cur.toggles - prev.toggles}/s frames ${ticks.frames}/s rows ${ticks.rows}/s screens ${ticks.open}` +
        (s
          ? ` | cpu server ${s.serverCpu.toFixed(0)}% tester ${s.others.load_tester!.toFixed(0)}% mysql ${(s.others.mysql ?? 0).toFixed(0)}% irq ${s.irqCpu.toFixed(0)}% other ${s.otherCpu.toFixed(0)}% rss ${s.serverRss.map((r) => r.toFixed(0)).join('/')} MB`
          : ''),
    );
    prev = cur;
  }, 1_000);
  await sleep(DURATION_S * 1000);
  const runEnd = now() - t0;
  const mainEluValue = performance.eventLoopUtilization(mainElu).utilization;
  await Promise.all(testers.map((t) => t.call({ type: 'traffic-end' }, 'ok')));
  const heartbeatsInRun = fleet.heartbeats - heartbeatsAtStart;
  log('traffic stopped; waiting for the requests in flight…');
  await Promise.all([fleet.stopAttempts(), toggles.stop()]);

  // Final state: the full screens' boards against the database, SETTLE_S after the last change.
  await sleep(SETTLE_S * 1000);
  const fullStates = () =>
    Promise.all(
      fulls.map(async (t, k) => ({
        states: (await t.call({ type: 'state' }, 'state')).states,
        expected: fullExpected[k]!,
      })),
    );
  const [statesAtSettle, dbAtSettle] = await Promise.all([
    fullStates(),
    databaseUrl ? databaseTeams(databaseUrl, teamIds) : Promise.resolve(null),
  ]);
  const atSettle = compareBoards(statesAtSettle, dbAtSettle);
  log(
    atSettle
      ? `final state ${SETTLE_S} s after the last change: ${atSettle.mismatches} mismatches of ${atSettle.compared} (screen, team) pairs`
      : 'final state not checked (no full screens or no --database-url)',
  );

  // Grace: late frames, until a second passes without any, at most GRACE_S.
  const graceEnd = now() + GRACE_S * 1000;
  while (now() < graceEnd) {
    await sleep(1_100);
    if (tickTotals(testers).frames === 0) break;
  }
  const observed = now() - t0;
  clearInterval(progress);
  const [statesAfterGrace, dbAfterGrace] = await Promise.all([
    fullStates(),
    databaseUrl ? databaseTeams(databaseUrl, teamIds) : Promise.resolve(null),
  ]);
  const afterGrace = compareBoards(statesAfterGrace, dbAfterGrace);
  const results: TesterResult[] = (
    await Promise.all(testers.map((t) => t.call({ type: 'collect' }, 'collected')))
  ).map((c) => c.result);
  fleet.stopHeartbeats();
  sampler.stop();

  let counted: { rows: number; sum: number } | null = null;
  if (databaseUrl) counted = await countAttempts(databaseUrl, teamIds);
  else log('no --database-url: attempts_counted not checked');
  // The mysql2 baseline runs on a copy of this run's database, taken before the servers drop it.
  if (!args['no-baselines'] && databaseUrl) live.scratchDatabase = await cloneDatabase(databaseUrl);

  // Product screens closed, servers stopped: the baselines get the machine to themselves.
  await Promise.all(lean.map((t) => t.call({ type: 'close-screens' }, 'ok')));
  await Promise.all(fulls.map((t) => t.stop()));
  http.close();
  if (live.servers) {
    await live.servers.stop();
    log('servers stopped, database dropped');
  }

  // Figures of the run.
  const runSeconds = (runEnd - runStart) / 1000;
  const push = new Histogram();
  for (const r of results) push.merge(Histogram.from(r.histogram));
  const pushSummary = push.summary();
  const screenP99s = results.flatMap((r) => [...r.screenP99].filter((v) => !Number.isNaN(v)));
  const worstScreenP99 = screenP99s.length ? round(Math.max(...screenP99s), 2) : null;
  const framesReceived = results.reduce((a, r) => a + r.frames, 0);
  const rowsReceived = results.reduce((a, r) => a + r.rows, 0);
  const testerElu: Record<string, number> = { main: round(mainEluValue, 3) };
  testers.forEach((t, k) => (testerElu[t.name] = round(results[k]!.elu, 3)));
  const testerEluMax = Math.max(...Object.values(testerElu));
  const offsets = [clockMs() - now(), ...results.map((r) => r.clockOffset)];
  const clockSkew = round(Math.max(...offsets) - Math.min(...offsets), 3);
  // Stalled screens: expected, but whose last frame is well older than their server's newest delivery.
  const serverOf = (index: number) => index % urls.length;
  const newestPerServer = new Map<number, number>();
  for (const r of results) {
    r.screenIndex.forEach((index, i) => {
      const at = r.screenLastFrameAt[i]!;
      if (!Number.isNaN(at))
        newestPerServer.set(serverOf(index), Math.max(newestPerServer.get(serverOf(index)) ?? 0, at));
    });
  }
  let screensStalled = 0;
  results.forEach((r, k) => {
    const mask = marked[k]!.openMask;
    r.screenIndex.forEach((index, i) => {
      if (mask[i] !== 1) return;
      const newest = newestPerServer.get(serverOf(index));
      if (newest === undefined) return; // that server pushed nothing at all
      const at = r.screenLastFrameAt[i]!;
      if (Number.isNaN(at) || newest - at > STALL_MS) screensStalled++;
    });
  });
  const fullResults = results.slice(lean.length);
  const match =
    fullResults.length > 0
      ? matchPushes(
          changes,
          {
            parts: fullResults.map((r, k) => ({
              records: r.records ?? {
                team: new Int32Array(),
                version: new Int32Array(),
                n: new Int32Array(),
                arrivals: [],
              },
              expected: fullExpected[k]!,
            })),
          },
          runStart,
          observed,
        )
      : null;
  const recorded: RecordedFrame[] = results[0]?.recorded ?? [];
  const recorderFrames = recorded.length;

  // Validity of the measure (issue 12: a run whose tester ELU exceeds 0.5 is not published).
  const invalid: string[] = [];
  if (testerEluMax > TESTER_ELU_MAX)
    invalid.push(
      `tester event-loop utilisation ${testerEluMax.toFixed(2)} > ${TESTER_ELU_MAX} (${Object.entries(
        testerElu,
      )
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')})`,
    );
  if (expectedScreens < SCREENS)
    invalid.push(`${SCREENS - expectedScreens} of ${SCREENS} screens not connected when traffic started`);
  if (changes.length > 0 && framesReceived === 0) invalid.push('no frame reached any screen');
  if (clockSkew > 5) invalid.push(`clock skew ${clockSkew} ms between tester processes`);
  if (fleet.skipped > 0.05 * fleet.attemptsSent && testerElu.main! > TESTER_ELU_MAX)
    invalid.push('the attempts schedule fell behind while the main process was saturated');
  const valid = invalid.length === 0;
  // Not invalid, but blurred: other work on the machine shared the CPUs (the figures are only as good
  // as the machine is idle; --wait-quiet waits for that).
  const otherCpu = mean(sampler.window(runStart, runEnd).map((s) => s.otherCpu));
  const warnings: string[] = [];
  if (otherCpu > 25)
    warnings.push(`other processes used ${otherCpu.toFixed(0)} % of one core during the run`);
  if (busyBefore > 30) warnings.push(`the machine was ${busyBefore.toFixed(0)} % busy before the run`);

  // Baselines.
  let wsBase: WsBaselineResult | null = null;
  let dbBase: MysqlBaselineResult | null = null;
  const baseSampler = new ProcSampler(
    [],
    { load_tester: [process.pid, ...lean.map((t) => t.pid)], mysql: findPids(['mariadbd', 'mysqld']) },
    t0,
  );
  let wsOtherCpu: number | null = null;
  let dbOtherCpu: number | null = null;
  if (!args['no-baselines']) {
    baseSampler.start();
    const wsFrom = now() - t0;
    if (recorded.length > 0) {
      log(
        `baseline ws: the ${recorded.length} recorded frames to ${SCREENS} lean clients, ${BASELINE_S} s at most`,
      );
      wsBase = await runWsBaseline({
        recorded,
        durationS: BASELINE_S,
        screens: SCREENS,
        testers: lean,
        batch: Math.max(1, Math.ceil(RAMP_BATCH / lean.length)),
        pinCpus: plan.pinned ? plan.servers : null,
        log,
      });
      const wsTo = now() - t0;
      wsOtherCpu = Math.max(
        0,
        mean(baseSampler.window(wsFrom, wsTo).map((x) => x.otherCpu)) - wsBase.server_cpu_pct,
      );
      log(`baseline ws: p99 ${wsBase.push_ms.p99} ms, ${wsBase.frames_lost} deliveries lost`);
    } else log('baseline ws skipped: no frame was recorded');
    if (live.scratchDatabase) {
      const dbFrom = now() - t0;
      log(
        `baseline mysql2: ${CONCURRENCY} requests in flight, groups of up to 900 attempts, ${BASELINE_S} s`,
      );
      dbBase = await runMysqlBaselineProcess(
        {
          databaseUrl: live.scratchDatabase,
          teamIds,
          batchMin: BATCH_MIN,
          batchMax: BATCH_MAX,
          concurrency: CONCURRENCY,
          durationS: BASELINE_S,
        },
        plan.pinned ? plan.servers : null,
      );
      live.scratchDatabase = undefined;
      dbOtherCpu = mean(baseSampler.window(dbFrom, now() - t0).map((x) => x.otherCpu));
      log(`baseline mysql2: ${dbBase.attempts_per_s.toFixed(0)} attempts/s`);
    } else log('baseline mysql2 skipped: no database');
    baseSampler.stop();
  }
  await Promise.all(lean.map((t) => t.stop()));
  live.testers = [];

  // Figures.
  const runSamples = sampler.window(runStart, runEnd);
  const allSamples = sampler.samples;
  const serverRssPerProcess = serverPids().map((_, i) =>
    round(Math.max(0, ...allSamples.map((s) => s.serverRss[i] ?? 0)), 1),
  );
  const httpAll = new Histogram();
  httpAll.merge(fleet.http);
  httpAll.merge(toggles.http);
  httpAll.merge(fleet.httpHeartbeat);
  const attemptsPerS = fleet.attemptsAcked / runSeconds;
  const changesPerS = changes.length / runSeconds;
  const several = urls.length > 1;
  const p99Target = several ? 150 : 100;
  const ratioTarget = several ? 3 : 2;
  const dbRatioTarget = several ? 0.6 : 0.7;
  const seconds = Math.ceil((observed - runStart) / 1000);
  const perSecond = (pick: (s: (typeof allSamples)[number]) => number) =>
    Array.from({ length: seconds }, (_, k) => {
      const s = allSamples.find((x) => x.t > runStart + k * 1000 && x.t <= runStart + (k + 1) * 1000 + 500);
      return s ? round(pick(s), 1) : null;
    });
  const serverRssMax = serverRssPerProcess.length ? Math.max(...serverRssPerProcess) : null;
  const pushRatio = wsBase && wsBase.push_ms.p99 > 0 ? round(pushSummary.p99 / wsBase.push_ms.p99, 2) : null;
  const dbRatio = dbBase ? round(attemptsPerS / dbBase.attempts_per_s, 3) : null;
  const attainable = dbBase ? Math.min(ATTEMPT_RATE, dbBase.attempts_per_s) : 0;
  const attainableRatio = dbBase && attainable > 0 ? round(attemptsPerS / attainable, 3) : null;
  const mismatches = atSettle?.mismatches ?? null;
  const fromRequest = match?.all.summary() ?? null;

  const result = {
    date: new Date().toISOString(),
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`,
    valid,
    invalid_reasons: invalid,
    warnings,
    machine: {
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model ?? '',
      mem_gb: round(os.totalmem() / 2 ** 30, 1),
      node: process.version,
    },
    config: {
      screens: SCREENS,
      full_screens: FULL_SCREENS,
      full_processes: fulls.length,
      lean_screens: LEAN_SCREENS,
      tester_processes: TESTER_PROCESSES,
      agents: AGENTS,
      duration_s: DURATION_S,
      processes: urls.length,
      external_url: Boolean(ext),
      server_env: SERVER_ENV,
      attempt_rate_per_s: ATTEMPT_RATE,
      toggle_rate_per_s: TOGGLE_RATE,
      batch: [BATCH_MIN, BATCH_MAX],
      concurrency: CONCURRENCY,
      ramp_batch: RAMP_BATCH,
      client_deflate: args['client-deflate'],
      settle_s: SETTLE_S,
      grace_s: GRACE_S,
      baseline_s: BASELINE_S,
      pinning: plan.pinned
        ? { servers: plan.servers, tester: plan.tester, tester_allowed: testerCpus, mysql: 'not pinned' }
        : { none: plan.reason },
    },
    seed_s: round(seeded.ms / 1000, 1),
    ramp_s: round(rampS, 1),
    screens_connected: expectedScreens,
    screens_failed: screensFailed,
    screen_disconnects: results.reduce((a, r) => a + r.disconnects, 0),
    screen_reconnects: results.reduce((a, r) => a + r.reconnects, 0),
    screen_resets: results.reduce((a, r) => a + r.resets, 0),
    screens_stalled: screensStalled,
    push_ms: pushSummary,
    push_ms_from_commit: pushSummary,
    push_ms_worst_screen_p99: worstScreenP99,
    push_ms_from_request: fromRequest,
    push_ms_from_request_attempts: match?.attempts.summary() ?? null,
    push_ms_from_request_toggles: match?.toggles.summary() ?? null,
    push_from_request_unarrived: match?.unarrived ?? null,
    push_from_request_pairs: match?.expected ?? null,
    events_lost: mismatches,
    final_state_mismatches: mismatches,
    final_state_compared: atSettle?.compared ?? null,
    final_state_mismatches_after_grace: afterGrace?.mismatches ?? null,
    changes: changes.length,
    changes_per_s: round(changesPerS, 1),
    changes_never_seen: match?.changesNeverSeen ?? null,
    push_frames_per_screen_per_s:
      expectedScreens > 0 ? round(framesReceived / expectedScreens / runSeconds, 1) : 0,
    push_rows_per_frame: framesReceived > 0 ? round(rowsReceived / framesReceived, 2) : 0,
    recorded_frames: recorderFrames,
    attempts_sent: fleet.attemptsSent,
    attempts_acked: fleet.attemptsAcked,
    attempts_counted: counted?.rows ?? null,
    attempts_counted_sum: counted?.sum ?? null,
    attempts_consistent: counted
      ? counted.rows === fleet.attemptsAcked && counted.sum === fleet.attemptsAcked
      : null,
    attempts_per_s: round(attemptsPerS, 1),
    attempts_skipped: fleet.skipped,
    attempt_requests: fleet.requests,
    /** Every request answered per second of the run: attempts POSTs, toggles and heartbeats. */
    requests_per_s: round((fleet.requests + toggles.sent + heartbeatsInRun) / runSeconds, 1),
    attempt_errors: fleet.errors,
    attempt_error_kinds: fleet.errorKinds,
    toggles_sent: toggles.sent,
    toggles_acked: toggles.acked,
    toggle_errors: toggles.errors,
    heartbeats: fleet.heartbeats,
    heartbeat_errors: fleet.heartbeatErrors,
    heartbeats_skipped: fleet.heartbeatsSkipped,
    http_ms: httpAll.summary(),
    http_ms_attempts: fleet.http.summary(),
    http_ms_toggles: toggles.http.summary(),
    http_ms_heartbeats: fleet.httpHeartbeat.summary(),
    server_cpu_pct: live.servers ? round(mean(runSamples.map((s) => s.serverCpu)), 1) : null,
    server_rss_mb: serverRssMax,
    server_rss_mb_per_process: serverRssPerProcess,
    /** Mean CPU during the run, % of one core (100 = one core busy). */
    cpu_pct: {
      server: live.servers ? round(mean(runSamples.map((s) => s.serverCpu)), 1) : null,
      load_tester: round(mean(runSamples.map((s) => s.others.load_tester ?? 0)), 1),
      mysql: round(mean(runSamples.map((s) => s.others.mysql ?? 0)), 1),
      redis: several ? round(mean(runSamples.map((s) => s.others.redis ?? 0)), 1) : null,
      kernel_irq: round(mean(runSamples.map((s) => s.irqCpu)), 1),
      other_processes: round(mean(runSamples.map((s) => s.otherCpu)), 1),
      machine: round(mean(runSamples.map((s) => s.machineCpu)), 1),
    },
    machine_busy_before_pct: round(busyBefore, 1),
    tester_elu: round(testerEluMax, 3),
    tester_elu_per_process: testerElu,
    clock_skew_ms: clockSkew,
    baseline: {
      push_ms: wsBase?.push_ms ?? null,
      push_ms_worst_screen_p99: wsBase?.push_ms_worst_screen_p99 ?? null,
      push_frames: wsBase?.frames ?? null,
      push_frames_per_s: wsBase ? round(wsBase.frames_per_s, 1) : null,
      push_rows_per_frame: wsBase ? round(wsBase.rows_per_frame, 2) : null,
      push_frames_lost: wsBase?.frames_lost ?? null,
      push_screens: wsBase?.screens ?? null,
      push_server_cpu_pct: wsBase ? round(wsBase.server_cpu_pct, 1) : null,
      push_server_late_ms: wsBase ? round(wsBase.server_late_ms, 2) : null,
      push_tester_elu: wsBase ? wsBase.tester_elu.map((v) => round(v, 3)) : null,
      push_other_processes_cpu_pct: wsOtherCpu === null ? null : round(wsOtherCpu, 1),
      attempts_per_s: dbBase ? round(dbBase.attempts_per_s, 1) : null,
      transactions_per_s: dbBase ? round(dbBase.transactions_per_s, 1) : null,
      attempts_per_group: dbBase ? round(dbBase.attempts_per_group, 1) : null,
      attempts_consistent: dbBase?.consistent ?? null,
      mysql_concurrency: dbBase?.concurrency ?? null,
      mysql_other_processes_cpu_pct: dbOtherCpu === null ? null : round(dbOtherCpu, 1),
    },
    ratios: {
      push_p99_vs_baseline: pushRatio,
      attempts_per_s_vs_baseline: dbRatio,
      attempts_per_s_vs_attainable: attainableRatio,
    },
    /** Issue 12's table: one process / two processes over Redis. */
    targets: {
      screens_2000: expectedScreens >= 2000,
      agents_500: AGENTS >= 500,
      changes_per_s_600: changesPerS >= 600,
      push_p99_ms_max: p99Target,
      push_p99_ok: pushSummary.count > 0 && pushSummary.p99 <= p99Target,
      push_ratio_max: ratioTarget,
      push_ratio_ok: pushRatio === null ? null : pushRatio <= ratioTarget,
      final_state_mismatches_zero: mismatches === null ? null : mismatches === 0,
      // Whole attempts per second: a run offered exactly 2,000/s that stored all of them reads 1,999.99.
      attempts_per_s_2000: Math.round(attemptsPerS) >= 2000,
      attempts_ratio_min: dbRatioTarget,
      attempts_ratio_ok: dbRatio === null ? null : dbRatio >= dbRatioTarget,
      rss_400_mb: serverRssMax === null ? null : serverRssMax <= 400,
      tester_elu_ok: testerEluMax <= TESTER_ELU_MAX,
    },
    series: {
      second: Array.from({ length: seconds }, (_, k) => k),
      attempts_per_s: Array.from({ length: seconds }, (_, k) => fleet.ackedPerSecond[k] ?? 0),
      push_from_request_p99_ms: match ? match.perSecond.p99(seconds) : [],
      frames_per_s: framesPerSecond.slice(0, seconds),
      server_cpu_pct: perSecond((s) => s.serverCpu),
      server_rss_mb: serverPids().map((_, i) => perSecond((s) => s.serverRss[i] ?? 0)),
      load_tester_cpu_pct: perSecond((s) => s.others.load_tester ?? 0),
      mysql_cpu_pct: perSecond((s) => s.others.mysql ?? 0),
      kernel_irq_cpu_pct: perSecond((s) => s.irqCpu),
      other_cpu_pct: perSecond((s) => s.otherCpu),
      machine_cpu_pct: perSecond((s) => s.machineCpu),
    },
  };

  await mkdir(path.dirname(OUT), { recursive: true });
  await writeFile(OUT, JSON.stringify(result, null, 2) + '\n');
  const html = OUT.replace(/\.json$/i, '') + '.html';
  const t = result.targets;
  await writeFile(
    html,
    renderHtmlReport({
      title: `${valid ? '' : 'INVALID: '}Load test: ${SCREENS} screens, ${AGENTS} agents, ${urls.length} process(es), ${DURATION_S} s`,
      summary: [
        ['valid measure (tester not the bottleneck)', valid ? 'yes' : `NO: ${invalid.join('; ')}`, '', valid],
        ['tester ELU (max over processes)', `${result.tester_elu}`, `≤ ${TESTER_ELU_MAX}`, t.tester_elu_ok],
        [
          'screens connected (full / lean)',
          `${expectedScreens} / ${SCREENS} (${FULL_SCREENS} / ${LEAN_SCREENS})`,
          '2000',
          t.screens_2000,
        ],
        ['changes/s', `${result.changes_per_s}`, '≥ 600', t.changes_per_s_600],
        [
          'push from commit p50 / p95 / p99 / max (ms)',
          `${pushSummary.p50} / ${pushSummary.p95} / ${pushSummary.p99} / ${pushSummary.max}`,
          `p99 ≤ ${p99Target}`,
          t.push_p99_ok,
        ],
        ['worst screen p99 (ms)', `${worstScreenP99 ?? 'n/a'}`, '', null],
        [
          'push from request p50 / p99 (ms, full screens)',
          fromRequest ? `${fromRequest.p50} / ${fromRequest.p99}` : 'n/a',
          '',
          null,
        ],
        [
          'final-state mismatches',
          atSettle ? `${atSettle.mismatches} of ${atSettle.compared}` : 'n/a',
          '0',
          t.final_state_mismatches_zero,
        ],
        [
          'attempts sent / acked / counted',
          `${fleet.attemptsSent} / ${fleet.attemptsAcked} / ${counted?.rows ?? 'n/a'}`,
          'acked = counted',
          result.attempts_consistent,
        ],
        ['durable attempts/s', `${result.attempts_per_s}`, '≥ 2000', t.attempts_per_s_2000],
        [
          'server RSS max per process (MB)',
          `${serverRssPerProcess.join(' / ') || 'n/a'}`,
          '≤ 400',
          t.rss_400_mb,
        ],
        ['server CPU (% of one core, summed)', `${result.server_cpu_pct ?? 'n/a'}`, '', null],
        ['load tester CPU (% of one core)', `${result.cpu_pct.load_tester}`, '', null],
        ['MySQL CPU (% of one core)', `${result.cpu_pct.mysql}`, '', null],
        ['other processes CPU (% of one core)', `${result.cpu_pct.other_processes}`, '', null],
        [
          'baseline ws push p99 (ms), same frames',
          `${wsBase?.push_ms.p99 ?? 'n/a'} (${wsBase?.frames ?? 'n/a'} frames)`,
          '',
          null,
        ],
        ['push p99 / baseline', `${pushRatio ?? 'n/a'}`, `≤ ${ratioTarget}`, t.push_ratio_ok],
        ['baseline mysql2 attempts/s, same SQL', `${result.baseline.attempts_per_s ?? 'n/a'}`, '', null],
        ['attempts/s / baseline', `${dbRatio ?? 'n/a'}`, `≥ ${dbRatioTarget}`, t.attempts_ratio_ok],
      ],
      histogram: push.bins(40),
      series: {
        attemptsPerS: [{ name: 'attempts/s', values: result.series.attempts_per_s }],
        pushP99Ms: [{ name: 'push p99 from request', values: result.series.push_from_request_p99_ms }],
        cpuPct: [
          { name: 'server', values: result.series.server_cpu_pct },
          { name: 'load tester', values: result.series.load_tester_cpu_pct },
          { name: 'mysql', values: result.series.mysql_cpu_pct },
          { name: 'kernel irq', values: result.series.kernel_irq_cpu_pct },
          { name: 'other', values: result.series.other_cpu_pct },
          { name: 'machine', values: result.series.machine_cpu_pct },
        ],
        rssMb: result.series.server_rss_mb.map((values, i) => ({ name: `process ${i + 1}`, values })),
      },
      json: result,
    }),
  );
  log(
    `push p99 ${pushSummary.p99} ms from commit (baseline ${wsBase?.push_ms.p99 ?? 'n/a'}), worst screen p99 ${worstScreenP99 ?? 'n/a'},` +
      ` from request p99 ${fromRequest?.p99 ?? 'n/a'}, final-state mismatches ${mismatches ?? 'n/a'},` +
      ` attempts ${result.attempts_per_s}/s (baseline ${result.baseline.attempts_per_s ?? 'n/a'}), acked ${fleet.attemptsAcked}, counted ${counted?.rows ?? 'n/a'},` +
      (live.servers
        ? ` server cpu ${result.server_cpu_pct}% rss ${serverRssPerProcess.join('/')} MB`
        : ' server not sampled (--url)') +
      `, tester ELU ${result.tester_elu}`,
  );
  for (const warning of warnings) log(`warning: ${warning}`);
  if (!valid) log(`INVALID run, do not publish: ${invalid.join('; ')}`);
  log(`wrote ${OUT} and ${html}`);
}

main()
  .catch(async (err) => {
    log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exitCode = 1;
  })
  .finally(async () => {
    await cleanup();
    // Sockets or timers of a failed run must not keep the process alive.
    setTimeout(() => process.exit(), 500).unref();
  });
