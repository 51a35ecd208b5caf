/**
 * `npm run bench -- --screens <N> --agents <M> --duration <s> [--processes <P>] [--url <server>] --out <file.json>`
 *
 * The load tester (DESIGN.md section 6, the load-testing issue). Unless `--url` is given it starts P
 * server processes itself on a throwaway database (testkit's `startDeployment`), then: seeds a contest, a coach,
 * a judge, M teams and their agent keys through the API (seed.ts); connects N socket.io screens in
 * every level room, round-robin over the processes (screens.ts); runs M agents sending heartbeats and
 * attempts at a steady total rate (agents.ts) and a judge toggling teams (toggles.ts); times every
 * change from its request to its arrival on every screen (matching.ts, metrics.ts); samples the server
 * processes from /proc (proc-sampler.ts); checks the database holds exactly the acknowledged attempts;
 * then measures the baselines, a bare ws broadcast (baseline-ws.ts) and a bare mysql2 write loop
 * (baseline-mysql.ts), and writes the JSON result and an HTML report beside it (report-html.ts).
 * Progress goes to stderr. Bounded in count and time; traffic only to 127.0.0.1. Times are ms unless
 * a name says `_s`. Measures; never fails because of a figure.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import mysql from 'mysql2/promise';
import { throwawayDatabaseUrl, userPath } from '@concurso/testkit/environment';
import { startDeployment, type Deployment } from '@concurso/testkit/deployment';
import { consecutiveFreePorts } from '@concurso/testkit/waiting';
import { AgentFleet, type SimAgent } from './agents.js';
import { runMysqlBaseline, type MysqlBaselineResult } from './baseline-mysql.js';
import { runWsBaseline, type WsBaselineResult } from './baseline-ws.js';
import { HttpClient } from './http.js';
import { matchPushes, type Change } from './matching.js';
import { Histogram, now, round } from './metrics.js';
import { ProcSampler, findPids, machineBusy, mean, waitForQuiet } from './proc-sampler.js';
import { renderHtmlReport } from './report-html.js';
import { ScreenPool, type ScreenClient } from './screens.js';
import { seed } from './seed.js';
import { TogglePump } from './toggles.js';

const { values: args } = parseArgs({
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
    'attempt-rate': { type: 'string', default: '2000' },
    'toggle-rate': { type: 'string', default: '5' },
    'batch-min': { type: 'string', default: '1' },
    'batch-max': { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '64' },
    'ramp-batch': { type: 'string', default: '100' },
    'screen-workers': { type: 'string', default: '1' },
    'screen-client': { type: 'string', default: 'socket.io' },
    'server-cpu-prof': { type: 'string' },
    grace: { type: 'string', default: '5' },
    'baseline-duration': { type: 'string' },
    'no-baselines': { type: 'boolean', default: false },
    'wait-quiet': { type: 'string', default: '0' },
    help: { type: 'boolean', default: false },
  },
});

const USAGE = `npm run bench -- --screens N --agents M --duration S --out FILE.json [options]
  --processes P          server processes to start (default 1; P > 1 fans out through Redis)
  --url URL[,URL...]     use running server(s) instead (loopback only); needs --admin-user/--admin-password
                         (or BENCH_ADMIN_USER / BENCH_ADMIN_PASSWORD) and, for attempts_counted,
                         --database-url (or DATABASE_URL)
  --attempt-rate R       attempts per second over all agents (2000)
  --toggle-rate R        team blocks/unblocks per second (5)
  --batch-min/--batch-max attempts per POST (1..5)
  --concurrency C        attempts POSTs in flight at most; also the mysql2 baseline's loops (64)
  --ramp-batch B         screens connecting at once (100)
  --screen-workers W     worker threads holding the screens (1)
  --screen-client C      socket.io (socket.io-client, default) or raw (same protocol over bare ws, lighter)
  --server-cpu-prof DIR  run the servers with --cpu-prof, profiles into DIR (investigation)
  --grace S              seconds to wait for late pushes after the run (5)
  --baseline-duration S  seconds of each baseline (min(duration, 20)); --no-baselines skips them
  --wait-quiet S         first wait up to S s for the machine to be quiet (< 30 % of one core busy) (0)
  --mysql-url URL        MySQL server for the throwaway databases (mysql://root@127.0.0.1:3306/)
  --redis-url URL        Redis for P > 1 (redis://127.0.0.1:6379)`;

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
const SCREEN_WORKERS = int('screen-workers', args['screen-workers'], 1, 16);
const GRACE_S = int('grace', args.grace, 0, 120);
const WAIT_QUIET_S = int('wait-quiet', args['wait-quiet'], 0, 3_600);
const BASELINE_S = int(
  'baseline-duration',
  args['baseline-duration'] ?? String(Math.min(DURATION_S, 20)),
  1,
  600,
);
const OUT = userPath(args.out);
const SCREEN_CLIENT = args['screen-client'] as ScreenClient;
if (SCREEN_CLIENT !== 'socket.io' && SCREEN_CLIENT !== 'raw') {
  process.stderr.write('--screen-client must be socket.io or raw\n');
  process.exit(2);
}
const MYSQL_URL =
  args['mysql-url'] ??
  process.env.BENCH_MYSQL_URL ??
  process.env.TEST_DATABASE_URL ??
  'mysql://root@127.0.0.1:3306/';

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
  pool?: ScreenPool;
  fleet?: AgentFleet;
  toggles?: TogglePump;
  sampler?: ProcSampler;
  http?: HttpClient;
}
const live: Cleanup = {};
/** The process ids of the servers this run started (none with `--url`). */
const serverPids = () => live.servers?.servers.map((server) => server.pid!) ?? [];

async function cleanup(): Promise<void> {
  live.sampler?.stop();
  live.fleet?.stopHeartbeats();
  await live.fleet?.stopAttempts(2_000);
  await live.toggles?.stop(2_000);
  await live.pool?.close().catch(() => undefined);
  live.http?.close();
  await live.servers?.stop();
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
      env: { LOGIN_RATE_LIMIT_MAX: '100000' },
      onLine: log,
      nodeFlags: args['server-cpu-prof']
        ? ['--cpu-prof', `--cpu-prof-dir=${userPath(args['server-cpu-prof'])}`]
        : [],
    });
    urls = live.servers.urls;
    databaseUrl = live.servers.databaseUrl;
    log(`servers ready: ${urls.join(', ')} (pids ${serverPids().join(', ')}), database ${databaseUrl}`);
  }

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

  const sampler = (live.sampler = new ProcSampler(
    serverPids(),
    {
      load_tester: [process.pid],
      mysql: findPids(['mariadbd', 'mysqld']),
      ...(urls.length > 1 ? { redis: findPids(['redis-server']) } : {}),
    },
    t0,
  ));
  sampler.start();

  // Screens: ramp up, then note which are connected as traffic starts.
  const rampStarted = now();
  const pool = (live.pool = new ScreenPool(SCREEN_WORKERS, t0));
  let lastRampLog = 0;
  const ramp = await pool.connect(
    SCREEN_CLIENT,
    urls,
    seeded.judgeToken,
    SCREENS,
    RAMP_BATCH,
    (connected, failed) => {
      if (now() - lastRampLog > 1_000 || connected + failed === SCREENS) {
        lastRampLog = now();
        log(`screens: ${connected}/${SCREENS} connected, ${failed} failed`);
      }
    },
  );
  const rampS = (now() - rampStarted) / 1000;
  await sleep(1_000);
  const expectedScreens = await pool.mark();
  log(`screens: ${expectedScreens} connected in ${rampS.toFixed(1)} s; traffic for ${DURATION_S} s`);

  // The run.
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
  const runStart = now() - t0;
  fleet.start(runStart);
  const heartbeatsAtStart = fleet.heartbeats;
  toggles.start();
  const pushesPerSecond: number[] = [];
  const framesAtStart = pool.pushesTotal;
  const rowsAtStart = pool.rowsTotal;
  let prev = { acked: 0, sent: 0, toggles: 0, pushes: pool.pushesTotal, rows: pool.rowsTotal };
  const progress = setInterval(() => {
    const cur = {
      acked: fleet.attemptsAcked,
      sent: fleet.attemptsSent,
      toggles: toggles.acked,
      pushes: pool.pushesTotal,
      rows: pool.rowsTotal,
    };
    pushesPerSecond.push(cur.pushes - prev.pushes);
    const s = sampler.samples.at(-1);
    log(
      `t=${Math.round((now() - t0 - runStart) / 1000)}s attempts ${cur.acked - prev.acked}/s (acked ${cur.acked}, in flight ${fleet.inFlight}, skipped ${fleet.skipped}, errors ${fleet.errors})` +
        ` toggles ${cur.toggles - prev.toggles}/s frames ${cur.pushes - prev.pushes}/s rows ${cur.rows - prev.rows}/s screens ${pool.open}` +
        (s
          ? ` | cpu server ${s.serverCpu.toFixed(0)}% tester ${s.others.load_tester!.toFixed(0)}% mysql ${(s.others.mysql ?? 0).toFixed(0)}% irq ${s.irqCpu.toFixed(0)}% other ${s.otherCpu.toFixed(0)}% rss ${s.serverRss.map((r) => r.toFixed(0)).join('/')} MB`
          : ''),
    );
    prev = cur;
  }, 1_000);
  await sleep(DURATION_S * 1000);
  const runEnd = now() - t0;
  const heartbeatsInRun = fleet.heartbeats - heartbeatsAtStart;
  log('traffic stopped; waiting for the requests in flight and late pushes…');
  await Promise.all([fleet.stopAttempts(), toggles.stop()]);
  // Grace: until two seconds pass without any push, at most GRACE_S after the last answer.
  const graceEnd = now() + GRACE_S * 1000;
  let quietFrom = pool.pushesTotal;
  let quietSeconds = 0;
  while (now() < graceEnd && quietSeconds < 2) {
    await sleep(1_000);
    quietSeconds = pool.pushesTotal === quietFrom ? quietSeconds + 1 : 0;
    quietFrom = pool.pushesTotal;
  }
  const framesInRun = pool.pushesTotal - framesAtStart;
  const rowsInRun = pool.rowsTotal - rowsAtStart;
  clearInterval(progress);
  fleet.stopHeartbeats();
  const settled = now() - t0;
  sampler.stop();
  const collected = await pool.collect();
  await pool.close();
  live.pool = undefined;

  const match = matchPushes(changes, collected, runStart);
  let counted: { rows: number; sum: number } | null = null;
  if (databaseUrl) counted = await countAttempts(databaseUrl, teamIds);
  else log('no --database-url: attempts_counted not checked');
  http.close();
  if (live.servers) {
    await live.servers.stop();
    log(`servers stopped, database dropped`);
  }

  // Baselines, on the machine now free of the product.
  const runSeconds = (runEnd - runStart) / 1000;
  const changesPerS = changes.length / runSeconds;
  /** Push frames each screen got per second, and rows per frame: what the ws baseline reproduces. */
  const framesPerScreenPerS = expectedScreens > 0 ? framesInRun / expectedScreens / runSeconds : 0;
  const rowsPerFrame = framesInRun > 0 ? rowsInRun / framesInRun : 1;
  let wsBase: WsBaselineResult | null = null;
  let dbBase: MysqlBaselineResult | null = null;
  // Other work on the machine during each baseline (% of one core), to judge how clean they are.
  const baseSampler = new ProcSampler(
    [],
    { load_tester: [process.pid], mysql: findPids(['mariadbd', 'mysqld']) },
    t0,
  );
  let wsOtherCpu: number | null = null;
  let dbOtherCpu: number | null = null;
  if (!args['no-baselines']) {
    baseSampler.start();
    const wsFrom = now() - t0;
    log(`baseline ws: ${SCREENS} clients, ${BASELINE_S} s`);
    wsBase = await runWsBaseline({
      screens: SCREENS,
      framesPerS: Math.max(1, framesPerScreenPerS),
      rowsPerFrame: Math.max(1, Math.round(rowsPerFrame)),
      durationS: BASELINE_S,
      workers: SCREEN_WORKERS,
      rampBatch: RAMP_BATCH,
      log,
    });
    const wsTo = now() - t0;
    // The bare ws server's own CPU is not "other".
    wsOtherCpu = Math.max(
      0,
      mean(baseSampler.window(wsFrom, wsTo).map((x) => x.otherCpu)) - wsBase.server_cpu_pct,
    );
    log(`baseline ws: p99 ${wsBase.push_ms.p99} ms, lost ${wsBase.events_lost}`);
    const dbFrom = now() - t0;
    log(`baseline mysql2: ${CONCURRENCY} loops, ${BASELINE_S} s`);
    dbBase = await runMysqlBaseline({
      mysqlServerUrl: MYSQL_URL,
      teams: AGENTS,
      batchMin: BATCH_MIN,
      batchMax: BATCH_MAX,
      concurrency: CONCURRENCY,
      durationS: BASELINE_S,
    });
    dbOtherCpu = mean(baseSampler.window(dbFrom, now() - t0).map((x) => x.otherCpu));
    baseSampler.stop();
    log(`baseline mysql2: ${dbBase.attempts_per_s.toFixed(0)} attempts/s`);
  }

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
  const push = match.all.summary();
  const attemptsPerS = fleet.attemptsAcked / runSeconds;
  const p99Target = urls.length > 1 ? 150 : 100;
  const seconds = Math.ceil((settled - runStart) / 1000);
  const perSecond = (pick: (s: (typeof allSamples)[number]) => number) =>
    Array.from({ length: seconds }, (_, k) => {
      const s = allSamples.find((x) => x.t > runStart + k * 1000 && x.t <= runStart + (k + 1) * 1000 + 500);
      return s ? round(pick(s), 1) : null;
    });
  const serverRssMax = serverRssPerProcess.length ? Math.max(...serverRssPerProcess) : null;

  const result = {
    date: new Date().toISOString(),
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`,
    machine: {
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model ?? '',
      mem_gb: round(os.totalmem() / 2 ** 30, 1),
      node: process.version,
    },
    config: {
      screens: SCREENS,
      agents: AGENTS,
      duration_s: DURATION_S,
      processes: urls.length,
      external_url: Boolean(ext),
      attempt_rate_per_s: ATTEMPT_RATE,
      toggle_rate_per_s: TOGGLE_RATE,
      batch: [BATCH_MIN, BATCH_MAX],
      concurrency: CONCURRENCY,
      ramp_batch: RAMP_BATCH,
      screen_workers: SCREEN_WORKERS,
      screen_client: SCREEN_CLIENT,
      grace_s: GRACE_S,
      baseline_s: BASELINE_S,
    },
    seed_s: round(seeded.ms / 1000, 1),
    ramp_s: round(rampS, 1),
    screens_connected: expectedScreens,
    screens_failed: ramp.failed,
    screen_disconnects: collected.disconnects,
    screen_reconnects: collected.reconnects,
    push_ms: push,
    push_ms_attempts: match.attempts.summary(),
    push_ms_toggles: match.toggles.summary(),
    events_lost: match.lost,
    events_expected: match.expected,
    changes: changes.length,
    changes_per_s: round(changesPerS, 1),
    changes_never_seen: match.changesNeverSeen,
    push_frames_per_screen_per_s: round(framesPerScreenPerS, 1),
    push_rows_per_frame: round(rowsPerFrame, 2),
    push_rows_distinct: match.distinctRows,
    push_duplicates: collected.duplicates,
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
    /** Pushes delivered to screens per second (changes x screens). */
    pushes_per_s: round(match.all.count / runSeconds, 0),
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
      redis: urls.length > 1 ? round(mean(runSamples.map((s) => s.others.redis ?? 0)), 1) : null,
      kernel_irq: round(mean(runSamples.map((s) => s.irqCpu)), 1),
      other_processes: round(mean(runSamples.map((s) => s.otherCpu)), 1),
      machine: round(mean(runSamples.map((s) => s.machineCpu)), 1),
    },
    machine_busy_before_pct: round(busyBefore, 1),
    screens_event_loop_utilisation: round(collected.elu, 3),
    baseline: {
      push_ms: wsBase?.push_ms ?? null,
      push_frames_per_s: wsBase ? round(wsBase.events_per_s, 1) : null,
      push_rows_per_frame: wsBase ? Math.max(1, Math.round(rowsPerFrame)) : null,
      push_events_lost: wsBase?.events_lost ?? null,
      push_screens: wsBase?.screens ?? null,
      push_server_cpu_pct: wsBase ? round(wsBase.server_cpu_pct, 1) : null,
      push_screens_event_loop_utilisation: wsBase ? round(wsBase.screens_elu, 3) : null,
      push_other_processes_cpu_pct: wsOtherCpu === null ? null : round(wsOtherCpu, 1),
      attempts_per_s: dbBase ? round(dbBase.attempts_per_s, 1) : null,
      transactions_per_s: dbBase ? round(dbBase.transactions_per_s, 1) : null,
      attempts_consistent: dbBase?.consistent ?? null,
      mysql_concurrency: dbBase?.concurrency ?? null,
      mysql_other_processes_cpu_pct: dbOtherCpu === null ? null : round(dbOtherCpu, 1),
    },
    ratios: {
      push_p99_vs_baseline: wsBase && wsBase.push_ms.p99 > 0 ? round(push.p99 / wsBase.push_ms.p99, 2) : null,
      attempts_per_s_vs_baseline: dbBase ? round(attemptsPerS / dbBase.attempts_per_s, 3) : null,
    },
    targets: {
      screens_2000: expectedScreens >= 2000,
      agents_500: AGENTS >= 500,
      push_p99_ms_max: p99Target,
      push_p99_ok: push.count > 0 && push.p99 <= p99Target,
      events_lost_zero: match.lost === 0,
      attempts_per_s_2000: attemptsPerS >= 2000,
      attempts_vs_baseline_half: dbBase ? attemptsPerS / dbBase.attempts_per_s >= 0.5 : null,
      rss_500_mb: serverRssMax === null ? null : serverRssMax <= 500,
    },
    series: {
      second: Array.from({ length: seconds }, (_, k) => k),
      attempts_per_s: Array.from({ length: seconds }, (_, k) => fleet.ackedPerSecond[k] ?? 0),
      push_p99_ms: match.perSecond.p99(seconds),
      pushes_per_s: pushesPerSecond.slice(0, seconds),
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
  const yes = (v: boolean | null) => v;
  await writeFile(
    html,
    renderHtmlReport({
      title: `Load test: ${SCREENS} screens, ${AGENTS} agents, ${urls.length} process(es), ${DURATION_S} s`,
      summary: [
        ['screens connected', `${expectedScreens} / ${SCREENS}`, '2000', yes(result.targets.screens_2000)],
        [
          'push p50 / p95 / p99 / max (ms)',
          `${push.p50} / ${push.p95} / ${push.p99} / ${push.max}`,
          `p99 ≤ ${p99Target}`,
          result.targets.push_p99_ok,
        ],
        ['events lost', `${match.lost} of ${match.expected}`, '0', result.targets.events_lost_zero],
        [
          'attempts sent / acked / counted',
          `${fleet.attemptsSent} / ${fleet.attemptsAcked} / ${counted?.rows ?? 'n/a'}`,
          'acked = counted',
          result.attempts_consistent,
        ],
        ['durable attempts/s', `${result.attempts_per_s}`, '≥ 2000', result.targets.attempts_per_s_2000],
        [
          'HTTP p50 / p95 / p99 (ms)',
          `${result.http_ms.p50} / ${result.http_ms.p95} / ${result.http_ms.p99}`,
          '',
          null,
        ],
        ['server CPU (% of one core, summed)', `${result.server_cpu_pct ?? 'n/a'}`, '', null],
        [
          'server RSS max per process (MB)',
          `${serverRssPerProcess.join(' / ') || 'n/a'}`,
          '≤ 500',
          result.targets.rss_500_mb,
        ],
        ['load tester CPU (% of one core)', `${result.cpu_pct.load_tester}`, '', null],
        ['MySQL CPU (% of one core)', `${result.cpu_pct.mysql}`, '', null],
        ['other processes CPU (% of one core)', `${result.cpu_pct.other_processes}`, '', null],
        [
          'baseline ws push p99 (ms)',
          `${wsBase?.push_ms.p99 ?? 'n/a'} at ${result.baseline.push_frames_per_s ?? 'n/a'} frames/s × ${result.baseline.push_rows_per_frame ?? 'n/a'} rows`,
          '',
          null,
        ],
        ['push p99 / baseline', `${result.ratios.push_p99_vs_baseline ?? 'n/a'}`, '', null],
        ['baseline mysql2 attempts/s', `${result.baseline.attempts_per_s ?? 'n/a'}`, '', null],
        [
          'attempts/s / baseline',
          `${result.ratios.attempts_per_s_vs_baseline ?? 'n/a'}`,
          '≥ 0.5',
          result.targets.attempts_vs_baseline_half,
        ],
      ],
      histogram: match.all.bins(40),
      series: {
        attemptsPerS: [{ name: 'attempts/s', values: result.series.attempts_per_s }],
        pushP99Ms: [{ name: 'push p99', values: result.series.push_p99_ms }],
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
    `push p99 ${push.p99} ms (baseline ${wsBase?.push_ms.p99 ?? 'n/a'}), lost ${match.lost}, attempts ${result.attempts_per_s}/s` +
      ` (baseline ${result.baseline.attempts_per_s ?? 'n/a'}), acked ${fleet.attemptsAcked}, counted ${counted?.rows ?? 'n/a'},` +
      (live.servers
        ? ` server cpu ${result.server_cpu_pct}% rss ${serverRssPerProcess.join('/')} MB`
        : ' server not sampled (--url)') +
      ` (other processes ${result.cpu_pct.other_processes}%)`,
  );
  log(`wrote ${OUT} and ${html}`);
}

main()
  .catch(async (err) => {
    log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exitCode = 1;
  })
  .finally(async () => {
    await cleanup();
    // Workers, sockets or timers of a failed run must not keep the process alive.
    setTimeout(() => process.exit(), 500).unref();
  });
