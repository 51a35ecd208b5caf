/**
 * The load tester's command line (`npm run bench -- …`, bench/README.md "Load tester"): parsed and
 * checked here, apart from the run, so a wrong option is a `UsageError` (never a `process.exit`) and
 * the parsing is unit-tested (load-options.test.ts).
 */
import { parseArgs } from 'node:util';
import { userPath } from '@concurso/testkit/environment';

export const LOAD_USAGE = `npm run bench -- --screens N --agents M --duration S --out FILE.json [options]
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
  --config-push-rounds R after the traffic, R changes of the blocked set timed on one agent socket per
                         agent (config_push_ms; 0 skips it) (5)
  --no-agent-sockets     the agents do not hold their push-channel sockets through the run (by
                         default each simulated agent holds one, as a lab's agents do)
  --mysql-url URL        MySQL server for the throwaway databases (mysql://root@127.0.0.1:3306/)
  --redis-url URL        Redis for P > 1 (redis://127.0.0.1:6379)`;

/** A command line the load tester refuses (or `--help`): what to print and the exit code (0 or 2). */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly exitCode: 0 | 2 = 2,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** One run's settings, checked and bounded (in count and time). Durations are seconds (`…S`). */
export interface LoadOptions {
  screens: number;
  /** Full socket.io-client screens (at most `screens - 1`: one lean screen records the frames). */
  fullScreens: number;
  leanScreens: number;
  agents: number;
  durationS: number;
  /** Server processes to start; unused with `urls`. */
  processes: number;
  /** `--url`'s servers (loopback only), or undefined when the run starts its own. */
  urls: string[] | undefined;
  admin: { adminUser: string; adminPassword: string };
  /** The database of `--url`'s servers (`--database-url` or DATABASE_URL); unused without `urls`. */
  databaseUrl: string | undefined;
  /** The MySQL server for the throwaway databases. */
  mysqlUrl: string;
  redisUrl: string;
  serverEnv: Record<string, string>;
  /** Attempts per second over all agents. */
  attemptRate: number;
  /** Team blocks/unblocks per second. */
  toggleRate: number;
  batchMin: number;
  batchMax: number;
  concurrency: number;
  testerProcesses: number;
  fullProcesses: number;
  clientDeflate: boolean;
  /** `--pin auto` (true) or `off`. */
  pin: boolean;
  rampBatch: number;
  settleS: number;
  graceS: number;
  /** `--server-cpu-prof`'s folder, resolved; undefined without it. */
  serverCpuProf: string | undefined;
  baselineS: number;
  baselines: boolean;
  waitQuietS: number;
  configPushRounds: number;
  agentSockets: boolean;
  /** The JSON result's path, resolved (the HTML report goes beside it). */
  out: string;
}

/** `value` as a number in `min..max`. @throws UsageError otherwise. */
function int(name: string, value: string | undefined, min: number, max: number): number {
  const n = Number(value);
  if (value === undefined || !Number.isFinite(n) || n < min || n > max)
    throw new UsageError(`--${name} must be a number in ${min}..${max}`);
  return n;
}

/** `--url`'s list, loopback only: the load tester sends traffic to 127.0.0.1 and nowhere else. */
function loopbackUrls(list: string | undefined): string[] | undefined {
  if (!list) return undefined;
  const urls = list.split(',').map((u) => u.trim().replace(/\/+$/, ''));
  for (const u of urls) {
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(new URL(u).hostname))
      throw new UsageError(`--url ${u}: only loopback servers (127.0.0.1) may be loaded`);
  }
  return urls.map((u) => u.replace('//localhost', '//127.0.0.1'));
}

/**
 * The load tester's settings from `argv` (the arguments after the script) and `env` (BENCH_ADMIN_USER,
 * BENCH_ADMIN_PASSWORD, DATABASE_URL, BENCH_MYSQL_URL, TEST_DATABASE_URL).
 * @throws UsageError for `--help` (exit code 0), a missing `--out`, an unknown option, a number out of
 *   its bounds, a non-loopback `--url`, `--url` without the admin's credentials, or a bad `--server-env`
 *   or `--pin` (exit code 2).
 */
export function parseLoadArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): LoadOptions {
  let values;
  try {
    values = parseArgs({
      args: argv,
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
        'config-push-rounds': { type: 'string', default: '5' },
        'no-agent-sockets': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }).values;
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  if (values.help) throw new UsageError('', 0);
  if (!values.out) throw new UsageError('--out is required');

  const screens = int('screens', values.screens, 1, 10_000);
  const durationS = int('duration', values.duration, 1, 600);
  const batchMin = int('batch-min', values['batch-min'], 1, 500);
  // At least one lean screen: it records the frames the ws baseline replays.
  const fullScreens = Math.min(int('full-screens', values['full-screens'], 0, 10_000), screens - 1);
  const leanScreens = screens - fullScreens;
  if (values.pin !== 'auto' && values.pin !== 'off') throw new UsageError('--pin must be auto or off');
  const serverEnv: Record<string, string> = {};
  for (const pair of values['server-env']) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--server-env ${pair}: expected KEY=VALUE`);
    serverEnv[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const urls = loopbackUrls(values.url);
  // The started servers' own admin, or --admin-user / --admin-password with --url.
  const adminUser = values['admin-user'] ?? env.BENCH_ADMIN_USER ?? (urls ? undefined : 'admin');
  const adminPassword =
    values['admin-password'] ?? env.BENCH_ADMIN_PASSWORD ?? (urls ? undefined : 'clave-banco-de-carga-2026');
  if (!adminUser || !adminPassword)
    throw new UsageError(
      '--url needs --admin-user and --admin-password (or BENCH_ADMIN_USER / BENCH_ADMIN_PASSWORD)',
    );
  return {
    screens,
    fullScreens,
    leanScreens,
    agents: int('agents', values.agents, 1, 5_000),
    durationS,
    processes: int('processes', values.processes, 1, 8),
    urls,
    admin: { adminUser, adminPassword },
    databaseUrl: values['database-url'] ?? env.DATABASE_URL,
    mysqlUrl:
      values['mysql-url'] ?? env.BENCH_MYSQL_URL ?? env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/',
    redisUrl: values['redis-url'],
    serverEnv,
    attemptRate: int('attempt-rate', values['attempt-rate'], 0, 100_000),
    toggleRate: int('toggle-rate', values['toggle-rate'], 0, 1_000),
    batchMin,
    batchMax: int('batch-max', values['batch-max'], batchMin, 500),
    concurrency: int('concurrency', values.concurrency, 1, 1_000),
    testerProcesses: Math.min(int('tester-processes', values['tester-processes'], 1, 32), leanScreens),
    fullProcesses: Math.min(int('full-processes', values['full-processes'], 1, 16), Math.max(1, fullScreens)),
    clientDeflate: values['client-deflate'],
    pin: values.pin === 'auto',
    rampBatch: int('ramp-batch', values['ramp-batch'], 1, 10_000),
    settleS: int('settle', values.settle, 0, 60),
    graceS: int('grace', values.grace, 0, 120),
    serverCpuProf: values['server-cpu-prof'] ? userPath(values['server-cpu-prof']) : undefined,
    baselineS: int(
      'baseline-duration',
      values['baseline-duration'] ?? String(Math.min(durationS, 20)),
      1,
      600,
    ),
    baselines: !values['no-baselines'],
    waitQuietS: int('wait-quiet', values['wait-quiet'], 0, 3_600),
    configPushRounds: int('config-push-rounds', values['config-push-rounds'], 0, 100),
    agentSockets: !values['no-agent-sockets'],
    out: userPath(values.out),
  };
}
