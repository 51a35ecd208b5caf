/**
 * One load run, in named steps (`runLoad`; cli.ts parses its settings with load-options.ts).
 *
 * The load tester (docs/design.md section 6; bench/README.md, "Load tester", defines every figure in
 * "Definitions"). Unless `--url` is given it starts P server processes itself on a throwaway
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
 * (baseline-mysql.ts); and writes the JSON result and an HTML report beside it (load-result.ts).
 * The run is marked invalid (report and stderr) when the tester itself was the bottleneck (event-loop
 * utilisation of any tester process above 0.5) or its measure cannot be trusted. Progress goes to
 * stderr. Bounded in count and time; traffic only to 127.0.0.1. Times are ms unless a name says `_s`.
 * Measures; never fails because of a figure.
 */
import { performance } from 'node:perf_hooks';
import mysql from 'mysql2/promise';
import { clockMs } from '@concurso/shared';
import { dropDatabase, throwawayDatabaseUrl } from '@concurso/testkit/environment';
import { startDeployment, type Deployment } from '@concurso/testkit/deployment';
import { consecutiveFreePorts } from '@concurso/testkit/waiting';
import { AgentFleet, type SimAgent } from './agents.js';
import { cloneDatabase, runMysqlBaselineProcess, type MysqlBaselineResult } from './baseline-mysql.js';
import { measureConfigPush, type ConfigPushResult } from './config-push.js';
import { AgentSockets } from './agent-sockets.js';
import { runWsBaseline, type WsBaselineResult } from './baseline-ws.js';
import { finalStateMismatches, type DatabaseTeam, type HeldRow } from './board-replica.js';
import { HttpClient } from './http.js';
import type { LoadOptions } from './load-options.js';
import { TESTER_ELU_MAX, TESTER_RUN_QUEUE_WAIT_WARN_PCT, writeLoadResult } from './load-result.js';
import { matchPushes, type Change } from './matching.js';
import { Histogram, now, round } from './metrics.js';
import { allowedCpus, pinPlan, pinProcess, type PinPlan } from './pinning.js';
import { ProcSampler, findPids, machineBusy, mean, waitForQuiet } from './proc-sampler.js';
import { log } from './progress.js';
import { seed } from './seed.js';
import type { RecordedFrame, ScreenSpec, TesterResult } from './tester-protocol.js';
import { TesterProcess, tickTotals } from './testers.js';
import { TogglePump } from './toggles.js';

/** A screen whose last frame is this much older than its server's newest delivery is stalled (ms). */
const STALL_MS = 1_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Cleanup {
  servers?: Deployment;
  testers: TesterProcess[];
  fleet?: AgentFleet;
  agentSockets?: AgentSockets;
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
  live.agentSockets?.close();
  live.fleet?.stopHeartbeats();
  await live.fleet?.stopAttempts(2_000);
  await live.toggles?.stop(2_000);
  await Promise.all(live.testers.map((t) => t.stop(5_000).catch(() => undefined)));
  live.testers = [];
  live.http?.close();
  await live.servers?.stop();
  if (live.scratchDatabase) await dropDatabase(live.scratchDatabase).catch(() => undefined);
}

/** Stops what the run started on SIGINT/SIGTERM (exit code 130); answers the function removing them. */
function stopOnSignals(): () => void {
  let aborting = false;
  const handlers = (['SIGINT', 'SIGTERM'] as const).map((signal) => {
    const handler = () => {
      if (aborting) return;
      aborting = true;
      log(`${signal}: stopping`);
      void cleanup().finally(() => process.exit(130));
    };
    process.on(signal, handler);
    return () => process.off(signal, handler);
  });
  return () => handlers.forEach((off) => off());
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

/** What a run keeps from its start to its report: filled step by step by `main`'s steps below. */
export interface LoadRun {
  /** The run's settings (load-options.ts). */
  o: LoadOptions;
  t0: number;
  /** `--url` servers, or undefined when the run starts its own. */
  ext: string[] | undefined;
  /** The process ids of the servers this run started (none with `--url`). */
  serverPids: number[];
  busyBefore: number;
  urls: string[];
  databaseUrl: string | undefined;
  plan: PinPlan;
  http: HttpClient;
  seeded: Awaited<ReturnType<typeof seed>>;
  teamIds: number[];
  /** Every change the agents and the judge made, for matching the pushes. */
  changes: Change[];
  fleet: AgentFleet;
  /** The agents' push-channel sockets held through the run; null with --no-agent-sockets. */
  agentSockets: AgentSockets | null;
  lean: TesterProcess[];
  fulls: TesterProcess[];
  testers: TesterProcess[];
  testerCpus: Record<string, unknown>;
  sampler: ProcSampler;
}

/** What the screens' ramp came to. */
export interface Ramp {
  rampS: number;
  screensFailed: number;
  marked: Array<{ open: number; openMask: Uint8Array }>;
  expectedScreens: number;
  /** Per full tester: which of its screens were connected when traffic started. */
  fullExpected: Uint8Array[];
}

/** What the traffic phase measured. */
export interface Traffic {
  toggles: TogglePump;
  runStart: number;
  runEnd: number;
  mainEluValue: number;
  heartbeatsInRun: number;
  framesPerSecond: number[];
  progress: NodeJS.Timeout;
}

/** What was collected after the traffic. */
export interface Collected {
  atSettle: ReturnType<typeof compareBoards>;
  afterGrace: ReturnType<typeof compareBoards>;
  /** When the screens stopped being watched (ms from t0). */
  observed: number;
  results: TesterResult[];
  counted: { rows: number; sum: number } | null;
}

/** The servers: `--url`'s, or P compiled servers on a throwaway database (the first migrates alone). */
async function startServers(o: LoadOptions): Promise<{ urls: string[]; databaseUrl: string | undefined }> {
  const { admin } = o;
  if (o.urls) {
    log(`using ${o.urls.join(', ')}`);
    return { urls: o.urls, databaseUrl: o.databaseUrl };
  }
  log(`starting ${o.processes} server process(es)…`);
  live.servers = await startDeployment({
    processes: o.processes,
    databaseUrl: throwawayDatabaseUrl('concurso_bench', o.mysqlUrl),
    dropDatabase: true,
    redisUrl: o.processes > 1 ? o.redisUrl : '',
    ports: await consecutiveFreePorts(o.processes),
    start: 'first',
    admin: { username: admin.adminUser, password: admin.adminPassword },
    env: { LOGIN_RATE_LIMIT_MAX: '100000', ...o.serverEnv },
    onLine: log,
    nodeFlags: o.serverCpuProf ? ['--cpu-prof', `--cpu-prof-dir=${o.serverCpuProf}`] : [],
  });
  const { urls, databaseUrl } = live.servers;
  log(`servers ready: ${urls.join(', ')} (pids ${serverPids().join(', ')}), database ${databaseUrl}`);
  return { urls, databaseUrl };
}

/** Pinning: servers on the first half of the CPUs, this process (and the testers it forks) on the rest. */
function pinServers(o: LoadOptions): PinPlan {
  const plan: PinPlan = o.urls ? { pinned: false, reason: 'external servers (--url)' } : pinPlan(o.pin);
  if (!plan.pinned) {
    log(`not pinned: ${plan.reason}`);
    return plan;
  }
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
  return plan;
}

/**
 * The run's world: a quiet machine (with `--wait-quiet`), the servers, the seeded contest, the agents
 * online, the tester processes and the sampler of every process.
 */
async function prepare(o: LoadOptions): Promise<LoadRun> {
  const t0 = now();
  const ext = o.urls;
  const { admin } = o;
  if (o.waitQuietS > 0) log('waiting for a quiet machine…');
  const busyBefore = o.waitQuietS > 0 ? await waitForQuiet(o.waitQuietS, 30, log) : await machineBusy();
  log(`machine busy ${busyBefore.toFixed(0)} % of one core before the run`);
  const { urls, databaseUrl } = await startServers(o);
  const plan = pinServers(o);

  const http = (live.http = new HttpClient(o.concurrency + 64));
  const seeded = await seed(http, { url: urls[0]!, ...admin, teams: o.agents, log });
  const changes: Change[] = [];
  const fleet = await startFleet(o, http, seeded, urls, t0, changes);
  const agentSockets = !o.agentSockets
    ? null
    : (live.agentSockets = await AgentSockets.open(agentEndpoints(seeded, urls)));
  if (agentSockets) log(`agents: ${agentSockets.connected} push-channel sockets held through the run`);
  const { lean, fulls, testers, testerCpus } = startTesters(o, t0);
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
  const teamIds = seeded.teams.map((t) => t.id);
  return {
    o,
    t0,
    ext,
    serverPids: serverPids(),
    busyBefore,
    urls,
    databaseUrl,
    plan,
    http,
    seeded,
    teamIds,
    changes,
    fleet,
    agentSockets,
    lean,
    fulls,
    testers,
    testerCpus,
    sampler,
  };
}

/** The M agents, each on server i % P, warmed up (configured and online) and beating. */
async function startFleet(
  o: LoadOptions,
  http: HttpClient,
  seeded: LoadRun['seeded'],
  urls: string[],
  t0: number,
  changes: Change[],
): Promise<AgentFleet> {
  const agents: SimAgent[] = seeded.teams.map((t, i) => ({
    teamId: t.id,
    key: t.key,
    url: urls[i % urls.length]!,
  }));
  const fleet = (live.fleet = new AgentFleet({
    http,
    agents,
    ratePerS: o.attemptRate,
    batchMin: o.batchMin,
    batchMax: o.batchMax,
    maxInFlight: o.concurrency,
    t0,
    onChange: (c) => changes.push(c),
  }));
  await fleet.warmUp();
  fleet.startHeartbeats();
  log(`agents: ${agents.length} configured and online`);
  return fleet;
}

/** Tester processes: T lean ones and, for the sample, K full ones; and the CPUs each may use. */
function startTesters(o: LoadOptions, t0: number) {
  const lean = Array.from(
    { length: o.testerProcesses },
    (_, k) => new TesterProcess('lean', `lean-${k + 1}`, t0),
  );
  const fulls =
    o.fullScreens > 0
      ? Array.from({ length: o.fullProcesses }, (_, k) => new TesterProcess('full', `full-${k + 1}`, t0))
      : [];
  const testers = [...lean, ...fulls];
  live.testers = testers;
  const testerCpus: Record<string, unknown> = Object.fromEntries([
    ['main', allowedCpus(process.pid)],
    ...testers.map((t) => [t.name, allowedCpus(t.pid)]),
  ]);
  return { lean, fulls, testers, testerCpus };
}

/**
 * Opens the N screens: screen i talks to server i % P (a load balancer's round robin); the first F are
 * full, the others lean, lean screen j in lean tester j % T; the first lean screen records the frames.
 * Then marks the start of the measure in every tester.
 */
async function connectScreens(run: LoadRun): Promise<Ramp> {
  const { o } = run;
  const { urls, lean, fulls, testers, seeded } = run;
  const specsOf = (from: number, to: number): ScreenSpec[] =>
    Array.from({ length: to - from }, (_, k) => ({ index: from + k, url: urls[(from + k) % urls.length]! }));
  const fullSpecs = fulls.map((_, t) => specsOf(0, o.fullScreens).filter((_, j) => j % fulls.length === t));
  const leanSpecs = lean.map((_, t) =>
    specsOf(o.fullScreens, o.screens).filter((_, j) => j % lean.length === t),
  );
  const batch = Math.max(1, Math.ceil(o.rampBatch / testers.length));
  const connect = (tester: TesterProcess, screens: ScreenSpec[], record: boolean, deflate: boolean) =>
    tester.call(
      { type: 'connect', mode: 'socket.io', screens, token: seeded.judgeToken, batch, record, deflate },
      'connected',
    );
  const rampStarted = now();
  const rampLog = setInterval(() => {
    const t = tickTotals(testers);
    log(`screens: ${t.connected}/${o.screens} connected, ${t.failed} failed`);
  }, 2_000);
  const connected = await Promise.all([
    ...lean.map((t, k) => connect(t, leanSpecs[k]!, k === 0, o.clientDeflate)),
    ...fulls.map((t, k) => connect(t, fullSpecs[k]!, false, false)),
  ]);
  clearInterval(rampLog);
  const rampS = (now() - rampStarted) / 1000;
  const screensFailed = connected.reduce((a, c) => a + c.failed, 0);
  await sleep(1_000);

  // The run: every tester measures from here.
  const marked = await Promise.all(testers.map((t) => t.call({ type: 'mark' }, 'marked')));
  const expectedScreens = marked.reduce((a, m) => a + m.open, 0);
  log(
    `screens: ${expectedScreens} connected in ${rampS.toFixed(1)} s (${screensFailed} failed); traffic for ${o.durationS} s`,
  );
  return {
    rampS,
    screensFailed,
    marked,
    expectedScreens,
    fullExpected: marked.slice(lean.length).map((m) => m.openMask),
  };
}

/** o.durationS of attempts, heartbeats and toggles, with a line of progress every second. */
async function driveTraffic(run: LoadRun): Promise<Traffic> {
  const { o } = run;
  const { http, urls, seeded, teamIds, t0, fleet, testers, sampler, changes } = run;
  const toggles = (live.toggles = new TogglePump({
    http,
    urls,
    adminToken: seeded.adminToken,
    teamIds,
    ratePerS: o.toggleRate,
    maxInFlight: 50,
    t0,
    onChange: (c) => changes.push(c),
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
  await sleep(o.durationS * 1000);
  const runEnd = now() - t0;
  const mainEluValue = performance.eventLoopUtilization(mainElu).utilization;
  await Promise.all(testers.map((t) => t.call({ type: 'traffic-end' }, 'ok')));
  const heartbeatsInRun = fleet.heartbeats - heartbeatsAtStart;
  log('traffic stopped; waiting for the requests in flight…');
  await Promise.all([fleet.stopAttempts(), toggles.stop()]);
  return { toggles, runStart, runEnd, mainEluValue, heartbeatsInRun, framesPerSecond, progress };
}

/**
 * After the traffic: the full screens' boards against the database o.settleS after the last change,
 * then again after the grace for late frames (until a second passes without any, at most o.graceS);
 * every tester's results; the attempts the database holds.
 */
async function collect(run: LoadRun, ramp: Ramp, traffic: Traffic): Promise<Collected> {
  const { o } = run;
  const { fulls, testers, databaseUrl, teamIds, t0, fleet, sampler } = run;
  const compareNow = async () => {
    const [states, db] = await Promise.all([
      Promise.all(
        fulls.map(async (t, k) => ({
          states: (await t.call({ type: 'state' }, 'state')).states,
          expected: ramp.fullExpected[k]!,
        })),
      ),
      databaseUrl ? databaseTeams(databaseUrl, teamIds) : Promise.resolve(null),
    ]);
    return compareBoards(states, db);
  };
  await sleep(o.settleS * 1000);
  const atSettle = await compareNow();
  log(
    atSettle
      ? `final state ${o.settleS} s after the last change: ${atSettle.mismatches} mismatches of ${atSettle.compared} (screen, team) pairs`
      : 'final state not checked (no full screens or no --database-url)',
  );
  const graceEnd = now() + o.graceS * 1000;
  while (now() < graceEnd) {
    await sleep(1_100);
    if (tickTotals(testers).frames === 0) break;
  }
  const observed = now() - t0;
  clearInterval(traffic.progress);
  const afterGrace = await compareNow();
  const results: TesterResult[] = (
    await Promise.all(testers.map((t) => t.call({ type: 'collect' }, 'collected')))
  ).map((c) => c.result);
  fleet.stopHeartbeats();
  sampler.stop();
  let counted: { rows: number; sum: number } | null = null;
  if (databaseUrl) counted = await countAttempts(databaseUrl, teamIds);
  else log('no --database-url: attempts_counted not checked');
  return { atSettle, afterGrace, observed, results, counted };
}

/** Agent i's key and server (i % P, as its HTTP traffic). */
function agentEndpoints(seeded: LoadRun['seeded'], urls: string[]): Array<{ key: string; url: string }> {
  return seeded.teams.map((team, i) => ({ key: team.key, url: urls[i % urls.length]! }));
}

/** After the traffic, the blocked set's push to one agent socket per agent, unless skipped. */
async function timeConfigPush(run: LoadRun): Promise<ConfigPushResult | null> {
  const { o } = run;
  if (o.configPushRounds === 0) return null;
  return measureConfigPush({
    http: run.http,
    adminUrl: run.urls[0]!,
    adminToken: run.seeded.adminToken,
    contestId: run.seeded.contestId,
    agents: agentEndpoints(run.seeded, run.urls),
    ...(run.agentSockets ? { sockets: run.agentSockets } : {}),
    rounds: o.configPushRounds,
    log,
  });
}

/** The agents' push-channel sockets when the product stopped. */
export interface AgentSocketsAtEnd {
  /** Still open. */
  held: number;
  /** Policies they received through the run. */
  policies: number;
  disconnects: number;
}

/**
 * Closes the product's screens and stops its servers, so the baselines get the machine to themselves;
 * the mysql2 baseline gets a copy of this run's database first. Answers the agents' sockets as they
 * were when the product stopped (null with --no-agent-sockets).
 */
async function stopProduct(run: LoadRun): Promise<AgentSocketsAtEnd | null> {
  const { o } = run;
  if (o.baselines && run.databaseUrl) live.scratchDatabase = await cloneDatabase(run.databaseUrl);
  const atEnd = run.agentSockets
    ? {
        held: run.agentSockets.connected,
        policies: run.agentSockets.policies,
        disconnects: run.agentSockets.disconnects,
      }
    : null;
  run.agentSockets?.close();
  await Promise.all(run.lean.map((t) => t.call({ type: 'close-screens' }, 'ok')));
  await Promise.all(run.fulls.map((t) => t.stop()));
  run.http.close();
  if (live.servers) {
    await live.servers.stop();
    log('servers stopped, database dropped');
  }
  return atEnd;
}

/** The figures of the run itself, before the baselines. */
function runFigures(run: LoadRun, ramp: Ramp, traffic: Traffic, got: Collected) {
  const { results } = got;
  const push = new Histogram();
  for (const r of results) push.merge(Histogram.from(r.histogram));
  const screenP99s = results.flatMap((r) => [...r.screenP99].filter((v) => !Number.isNaN(v)));
  const testerElu: Record<string, number> = { main: round(traffic.mainEluValue, 3) };
  run.testers.forEach((t, k) => (testerElu[t.name] = round(results[k]!.elu, 3)));
  const offsets = [clockMs() - now(), ...results.map((r) => r.clockOffset)];
  const fullResults = results.slice(run.lean.length);
  const match =
    fullResults.length > 0
      ? matchPushes(
          run.changes,
          {
            parts: fullResults.map((r, k) => ({
              records: r.records ?? {
                team: new Int32Array(),
                version: new Int32Array(),
                n: new Int32Array(),
                arrivals: [],
              },
              expected: ramp.fullExpected[k]!,
            })),
          },
          traffic.runStart,
          got.observed,
        )
      : null;
  return {
    push,
    pushSummary: push.summary(),
    worstScreenP99: screenP99s.length ? round(Math.max(...screenP99s), 2) : null,
    framesReceived: results.reduce((a, r) => a + r.frames, 0),
    rowsReceived: results.reduce((a, r) => a + r.rows, 0),
    testerElu,
    testerEluMax: Math.max(...Object.values(testerElu)),
    clockSkew: round(Math.max(...offsets) - Math.min(...offsets), 3),
    screensStalled: stalledScreens(run.urls.length, results, ramp.marked),
    match,
    recorded: (results[0]?.recorded ?? []) as RecordedFrame[],
  };
}
export type RunFigures = ReturnType<typeof runFigures>;

/** Screens expected but whose last frame is well older (`STALL_MS`) than their server's newest delivery. */
function stalledScreens(servers: number, results: TesterResult[], marked: Ramp['marked']): number {
  const serverOf = (index: number) => index % servers;
  const newestPerServer = new Map<number, number>();
  for (const r of results) {
    r.screenIndex.forEach((index, i) => {
      const at = r.screenLastFrameAt[i]!;
      if (!Number.isNaN(at))
        newestPerServer.set(serverOf(index), Math.max(newestPerServer.get(serverOf(index)) ?? 0, at));
    });
  }
  let stalled = 0;
  results.forEach((r, k) => {
    const mask = marked[k]!.openMask;
    r.screenIndex.forEach((index, i) => {
      if (mask[i] !== 1) return;
      const newest = newestPerServer.get(serverOf(index));
      if (newest === undefined) return; // that server pushed nothing at all
      const at = r.screenLastFrameAt[i]!;
      if (Number.isNaN(at) || newest - at > STALL_MS) stalled++;
    });
  });
  return stalled;
}

/**
 * Whether the measure can be trusted (a run whose tester ELU exceeds 0.5 is not published),
 * and what blurred it without making it invalid (other work on the machine: --wait-quiet waits for a
 * quiet one).
 */
export function validity(run: LoadRun, ramp: Ramp, traffic: Traffic, fig: RunFigures) {
  const { o } = run;
  const invalid: string[] = [];
  if (fig.testerEluMax > TESTER_ELU_MAX)
    invalid.push(
      `tester event-loop utilisation ${fig.testerEluMax.toFixed(2)} > ${TESTER_ELU_MAX} (${Object.entries(
        fig.testerElu,
      )
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')})`,
    );
  if (ramp.expectedScreens < o.screens)
    invalid.push(
      `${o.screens - ramp.expectedScreens} of ${o.screens} screens not connected when traffic started`,
    );
  if (run.changes.length > 0 && fig.framesReceived === 0) invalid.push('no frame reached any screen');
  if (fig.clockSkew > 5) invalid.push(`clock skew ${fig.clockSkew} ms between tester processes`);
  if (run.fleet.skipped > 0.05 * run.fleet.attemptsSent && fig.testerElu.main! > TESTER_ELU_MAX)
    invalid.push('the attempts schedule fell behind while the main process was saturated');
  const otherCpu = mean(run.sampler.window(traffic.runStart, traffic.runEnd).map((s) => s.otherCpu));
  const warnings: string[] = [];
  if (otherCpu > 25)
    warnings.push(`other processes used ${otherCpu.toFixed(0)} % of one core during the run`);
  if (run.busyBefore > 30)
    warnings.push(`the machine was ${run.busyBefore.toFixed(0)} % busy before the run`);
  const testerWait = mean(
    run.sampler.window(traffic.runStart, traffic.runEnd).map((s) => s.runQueueWait.tester_max ?? 0),
  );
  if (testerWait > TESTER_RUN_QUEUE_WAIT_WARN_PCT)
    warnings.push(
      `a tester process waited for a CPU ${testerWait.toFixed(0)} % of the run (run queue): its frames were read that much later, and the push latency counts it`,
    );
  return { valid: invalid.length === 0, invalid, warnings };
}

/** The equal-work baselines' results, and the other processes' CPU while each ran. */
export interface Baselines {
  wsBase: WsBaselineResult | null;
  dbBase: MysqlBaselineResult | null;
  wsOtherCpu: number | null;
  /** The most any tester process waited on the run queue while the bare `ws` server pushed (% of wall). */
  wsTesterWait: number | null;
  dbOtherCpu: number | null;
}

/**
 * The equal-work baselines (unless `--no-baselines`): the recorded frames from a bare ws server to as
 * many lean clients, then the same grouped SQL from a bare mysql2 loop on the run's database copy.
 */
async function runBaselines(run: LoadRun, fig: RunFigures): Promise<Baselines> {
  const { o } = run;
  const out: Baselines = {
    wsBase: null,
    dbBase: null,
    wsOtherCpu: null,
    wsTesterWait: null,
    dbOtherCpu: null,
  };
  if (!o.baselines) return out;
  const { t0, lean, plan, teamIds } = run;
  const sampler = new ProcSampler(
    [],
    { load_tester: [process.pid, ...lean.map((t) => t.pid)], mysql: findPids(['mariadbd', 'mysqld']) },
    t0,
  );
  sampler.start();
  const wsFrom = now() - t0;
  if (fig.recorded.length > 0) {
    log(
      `baseline ws: the ${fig.recorded.length} recorded frames to ${o.screens} lean clients, ${o.baselineS} s at most`,
    );
    const wsBase = await runWsBaseline({
      recorded: fig.recorded,
      durationS: o.baselineS,
      screens: o.screens,
      testers: lean,
      batch: Math.max(1, Math.ceil(o.rampBatch / lean.length)),
      pinCpus: plan.pinned ? plan.servers : null,
      log,
    });
    const samples = sampler.window(wsFrom, now() - t0);
    const cpu = mean(samples.map((x) => x.otherCpu));
    Object.assign(out, {
      wsBase,
      wsOtherCpu: Math.max(0, cpu - wsBase.server_cpu_pct),
      wsTesterWait: mean(samples.map((x) => x.runQueueWait.tester_max ?? 0)),
    });
    log(`baseline ws: p99 ${wsBase.push_ms.p99} ms, ${wsBase.frames_lost} deliveries lost`);
  } else log('baseline ws skipped: no frame was recorded');
  if (live.scratchDatabase) {
    const dbFrom = now() - t0;
    log(
      `baseline mysql2: ${o.concurrency} requests in flight, groups of up to 900 attempts, ${o.baselineS} s`,
    );
    out.dbBase = await runMysqlBaselineProcess(
      {
        databaseUrl: live.scratchDatabase,
        teamIds,
        batchMin: o.batchMin,
        batchMax: o.batchMax,
        concurrency: o.concurrency,
        durationS: o.baselineS,
      },
      plan.pinned ? plan.servers : null,
    );
    live.scratchDatabase = undefined;
    out.dbOtherCpu = mean(sampler.window(dbFrom, now() - t0).map((x) => x.otherCpu));
    log(`baseline mysql2: ${out.dbBase.attempts_per_s.toFixed(0)} attempts/s`);
  } else log('baseline mysql2 skipped: no database');
  sampler.stop();
  return out;
}

/**
 * One run, step by step: prepare the world, open the screens, drive the traffic, collect, stop the
 * product, compute the figures, run the baselines, write the result and its report.
 */
export async function runLoad(o: LoadOptions): Promise<void> {
  const offSignals = stopOnSignals();
  try {
    await steps(o);
  } finally {
    await cleanup();
    offSignals();
  }
}

/** The named steps of one run, in order (`runLoad` stops what they started, however they end). */
async function steps(o: LoadOptions): Promise<void> {
  const run = await prepare(o);
  const ramp = await connectScreens(run);
  const traffic = await driveTraffic(run);
  const got = await collect(run, ramp, traffic);
  const configPush = await timeConfigPush(run);
  const agentSocketsAtEnd = await stopProduct(run);
  const fig = runFigures(run, ramp, traffic, got);
  const check = validity(run, ramp, traffic, fig);
  const baselines = await runBaselines(run, fig);
  await Promise.all(run.lean.map((t) => t.stop()));
  live.testers = [];
  await writeLoadResult({ run, ramp, traffic, got, fig, check, baselines, configPush, agentSocketsAtEnd });
}
