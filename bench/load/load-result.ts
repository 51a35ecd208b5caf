/**
 * A load run's result (load-run.ts's steps hand over what they measured): the JSON written to `--out`
 * and the HTML report beside it (report-html.ts), with the targets of bench/README.md ("Load tester",
 * "Definitions") and the lines printed to stderr at the end.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ConfigPushResult } from './config-push.js';
import type {
  AgentSocketsAtEnd,
  Baselines,
  Collected,
  LoadRun,
  Ramp,
  RunFigures,
  Traffic,
  validity,
} from './load-run.js';
import { Histogram, round } from './metrics.js';
import { mean } from './proc-sampler.js';
import { log } from './progress.js';
import { renderHtmlReport } from './report-html.js';
import type { TesterResult } from './tester-protocol.js';

/** Highest event-loop utilisation a tester process may show for the run to count. */
export const TESTER_ELU_MAX = 0.5;

/**
 * Run-queue wait of a tester process (% of wall time) above which the run is flagged: its reads of
 * the frames were late by that wait, which the push latency then counts (a warning, not a reason to
 * void the run: on 2 cores the database shares the testers' CPU whenever the attempts run).
 */
export const TESTER_RUN_QUEUE_WAIT_WARN_PCT = 10;

/** Everything the result is made of. */
export interface RunParts {
  run: LoadRun;
  ramp: Ramp;
  traffic: Traffic;
  got: Collected;
  fig: RunFigures;
  check: ReturnType<typeof validity>;
  baselines: Baselines;
  /** `config_push_ms`, null with `--config-push-rounds 0`. */
  configPush: ConfigPushResult | null;
  /**
   * The agents' sockets when the product stopped: how many were still open, the policies they
   * received, the disconnects; null with --no-agent-sockets.
   */
  agentSocketsAtEnd: AgentSocketsAtEnd | null;
}

/** The figures the result, its targets and its report share. */
function derived({ run, traffic, got, fig, baselines }: RunParts) {
  const { o } = run;
  const runSeconds = (traffic.runEnd - traffic.runStart) / 1000;
  const allSamples = run.sampler.samples;
  const serverRssPerProcess = run.serverPids.map((_, i) =>
    round(Math.max(0, ...allSamples.map((s) => s.serverRss[i] ?? 0)), 1),
  );
  const attemptsPerS = run.fleet.attemptsAcked / runSeconds;
  const several = run.urls.length > 1;
  const seconds = Math.ceil((got.observed - traffic.runStart) / 1000);
  const { wsBase, dbBase } = baselines;
  const attainable = dbBase ? Math.min(o.attemptRate, dbBase.attempts_per_s) : 0;
  return {
    runSeconds,
    runSamples: run.sampler.window(traffic.runStart, traffic.runEnd),
    allSamples,
    serverRssPerProcess,
    serverRssMax: serverRssPerProcess.length ? Math.max(...serverRssPerProcess) : null,
    attemptsPerS,
    changesPerS: run.changes.length / runSeconds,
    several,
    p99Target: several ? 150 : 100,
    ratioTarget: several ? 3 : 2,
    dbRatioTarget: several ? 0.6 : 0.7,
    seconds,
    /** One value per second of the run (the sample that closes it), or null. */
    perSecond: (pick: (s: (typeof allSamples)[number]) => number) =>
      Array.from({ length: seconds }, (_, k) => {
        const s = allSamples.find(
          (x) => x.t > traffic.runStart + k * 1000 && x.t <= traffic.runStart + (k + 1) * 1000 + 500,
        );
        return s ? round(pick(s), 1) : null;
      }),
    pushRatio: wsBase && wsBase.push_ms.p99 > 0 ? round(fig.pushSummary.p99 / wsBase.push_ms.p99, 2) : null,
    dbRatio: dbBase ? round(attemptsPerS / dbBase.attempts_per_s, 3) : null,
    attainableRatio: dbBase && attainable > 0 ? round(attemptsPerS / attainable, 3) : null,
    mismatches: got.atSettle?.mismatches ?? null,
    fromRequest: fig.match?.all.summary() ?? null,
  };
}
type Derived = ReturnType<typeof derived>;

/** `config` of the result: what was asked and how the run was pinned. */
function resultConfig(run: LoadRun) {
  const { o } = run;
  return {
    screens: o.screens,
    full_screens: o.fullScreens,
    full_processes: run.fulls.length,
    lean_screens: o.leanScreens,
    tester_processes: o.testerProcesses,
    agents: o.agents,
    duration_s: o.durationS,
    processes: run.urls.length,
    external_url: Boolean(run.ext),
    server_env: o.serverEnv,
    attempt_rate_per_s: o.attemptRate,
    toggle_rate_per_s: o.toggleRate,
    batch: [o.batchMin, o.batchMax],
    concurrency: o.concurrency,
    ramp_batch: o.rampBatch,
    client_deflate: o.clientDeflate,
    settle_s: o.settleS,
    grace_s: o.graceS,
    baseline_s: o.baselineS,
    pinning: run.plan.pinned
      ? {
          servers: run.plan.servers,
          tester: run.plan.tester,
          tester_allowed: run.testerCpus,
          mysql: 'not pinned',
        }
      : { none: run.plan.reason },
  };
}

/** `baseline` of the result: the equal-work baselines' own figures. */
function resultBaseline({ wsBase, dbBase, wsOtherCpu, wsTesterWait, dbOtherCpu }: Baselines) {
  return {
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
    /** The most any tester process waited on the run queue during the replay, % of wall. */
    push_tester_run_queue_wait_pct: wsTesterWait === null ? null : round(wsTesterWait, 1),
    attempts_per_s: dbBase ? round(dbBase.attempts_per_s, 1) : null,
    transactions_per_s: dbBase ? round(dbBase.transactions_per_s, 1) : null,
    attempts_per_group: dbBase ? round(dbBase.attempts_per_group, 1) : null,
    attempts_consistent: dbBase?.consistent ?? null,
    mysql_concurrency: dbBase?.concurrency ?? null,
    mysql_other_processes_cpu_pct: dbOtherCpu === null ? null : round(dbOtherCpu, 1),
  };
}

/** `targets` of the result: the load test's targets (bench/README.md), one process / two over Redis. */
function resultTargets(parts: RunParts, d: Derived) {
  const { o } = parts.run;
  const { ramp, fig } = parts;
  return {
    screens_2000: ramp.expectedScreens >= 2000,
    agents_500: o.agents >= 500,
    changes_per_s_600: d.changesPerS >= 600,
    push_p99_ms_max: d.p99Target,
    push_p99_ok: fig.pushSummary.count > 0 && fig.pushSummary.p99 <= d.p99Target,
    push_ratio_max: d.ratioTarget,
    push_ratio_ok: d.pushRatio === null ? null : d.pushRatio <= d.ratioTarget,
    final_state_mismatches_zero: d.mismatches === null ? null : d.mismatches === 0,
    // Whole attempts per second: a run offered exactly 2,000/s that stored all of them reads 1,999.99.
    attempts_per_s_2000: Math.round(d.attemptsPerS) >= 2000,
    attempts_ratio_min: d.dbRatioTarget,
    attempts_ratio_ok: d.dbRatio === null ? null : d.dbRatio >= d.dbRatioTarget,
    rss_400_mb: d.serverRssMax === null ? null : d.serverRssMax <= 400,
    tester_elu_ok: fig.testerEluMax <= TESTER_ELU_MAX,
  };
}

/** `series` of the result: one value per second of the run. */
function resultSeries({ run, traffic, fig }: RunParts, d: Derived) {
  const { seconds, perSecond } = d;
  return {
    second: Array.from({ length: seconds }, (_, k) => k),
    attempts_per_s: Array.from({ length: seconds }, (_, k) => run.fleet.ackedPerSecond[k] ?? 0),
    push_from_request_p99_ms: fig.match ? fig.match.perSecond.p99(seconds) : [],
    frames_per_s: traffic.framesPerSecond.slice(0, seconds),
    server_cpu_pct: perSecond((s) => s.serverCpu),
    server_rss_mb: run.serverPids.map((_, i) => perSecond((s) => s.serverRss[i] ?? 0)),
    load_tester_cpu_pct: perSecond((s) => s.others.load_tester ?? 0),
    mysql_cpu_pct: perSecond((s) => s.others.mysql ?? 0),
    kernel_irq_cpu_pct: perSecond((s) => s.irqCpu),
    other_cpu_pct: perSecond((s) => s.otherCpu),
    machine_cpu_pct: perSecond((s) => s.machineCpu),
  };
}

/** Mean CPU during the run, % of one core (100 = one core busy). */
function resultCpu(d: Derived, ownServers: boolean) {
  const avg = (pick: (s: Derived['runSamples'][number]) => number) => round(mean(d.runSamples.map(pick)), 1);
  return {
    server: ownServers ? avg((s) => s.serverCpu) : null,
    load_tester: avg((s) => s.others.load_tester ?? 0),
    mysql: avg((s) => s.others.mysql ?? 0),
    redis: d.several ? avg((s) => s.others.redis ?? 0) : null,
    kernel_irq: avg((s) => s.irqCpu),
    other_processes: avg((s) => s.otherCpu),
    machine: avg((s) => s.machineCpu),
  };
}

/**
 * Mean run-queue wait during the run, % of wall time, per group (proc-sampler.ts `runQueueWait`):
 * `server` (every server thread summed), `load_tester` (every tester process summed), `tester_max`
 * (the tester process that waited most), `mysql`, `redis`.
 */
function resultRunQueueWait(samples: Array<{ runQueueWait?: Record<string, number> }>) {
  const avg = (key: string) =>
    round(mean(samples.map((s) => s.runQueueWait?.[key]).filter((v): v is number => v !== undefined)), 1);
  const keys = new Set(samples.flatMap((s) => Object.keys(s.runQueueWait ?? {})));
  return Object.fromEntries([...keys].map((key) => [key, avg(key)]));
}

/** Mean busy % of each CPU during the run (cpu0 first). */
function resultCpuBusy(samples: Array<{ cpuBusy?: number[] }>): number[] {
  const cpus = Math.max(0, ...samples.map((s) => s.cpuBusy?.length ?? 0));
  return Array.from({ length: cpus }, (_, i) =>
    round(mean(samples.map((s) => s.cpuBusy?.[i]).filter((v): v is number => v !== undefined)), 1),
  );
}

/** The JSON result of the run (bench/README.md defines every figure). */
function buildResult(parts: RunParts, d: Derived) {
  const { agentSocketsAtEnd } = parts;
  const { run, ramp, traffic, got, fig, check } = parts;
  const { fleet } = run;
  const { toggles } = traffic;
  const { results, counted } = got;
  const httpAll = new Histogram();
  httpAll.merge(fleet.http);
  httpAll.merge(toggles.http);
  httpAll.merge(fleet.httpHeartbeat);
  const cpu = resultCpu(d, !run.ext);
  const sum = (pick: (r: TesterResult) => number) => results.reduce((a, r) => a + pick(r), 0);
  return {
    date: new Date().toISOString(),
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`,
    valid: check.valid,
    invalid_reasons: check.invalid,
    warnings: check.warnings,
    machine: {
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model ?? '',
      mem_gb: round(os.totalmem() / 2 ** 30, 1),
      node: process.version,
    },
    config: resultConfig(run),
    seed_s: round(run.seeded.ms / 1000, 1),
    ramp_s: round(ramp.rampS, 1),
    screens_connected: ramp.expectedScreens,
    screens_failed: ramp.screensFailed,
    screen_disconnects: sum((r) => r.disconnects),
    screen_reconnects: sum((r) => r.reconnects),
    screen_resets: sum((r) => r.resets),
    screens_stalled: fig.screensStalled,
    push_ms: fig.pushSummary,
    push_ms_from_commit: fig.pushSummary,
    push_ms_worst_screen_p99: fig.worstScreenP99,
    push_ms_from_request: d.fromRequest,
    config_push_ms: parts.configPush,
    agent_sockets: agentSocketsAtEnd,
    push_ms_from_request_attempts: fig.match?.attempts.summary() ?? null,
    push_ms_from_request_toggles: fig.match?.toggles.summary() ?? null,
    push_from_request_unarrived: fig.match?.unarrived ?? null,
    push_from_request_pairs: fig.match?.expected ?? null,
    events_lost: d.mismatches,
    final_state_mismatches: d.mismatches,
    final_state_compared: got.atSettle?.compared ?? null,
    final_state_mismatches_after_grace: got.afterGrace?.mismatches ?? null,
    changes: run.changes.length,
    changes_per_s: round(d.changesPerS, 1),
    changes_never_seen: fig.match?.changesNeverSeen ?? null,
    push_frames_per_screen_per_s:
      ramp.expectedScreens > 0 ? round(fig.framesReceived / ramp.expectedScreens / d.runSeconds, 1) : 0,
    push_rows_per_frame: fig.framesReceived > 0 ? round(fig.rowsReceived / fig.framesReceived, 2) : 0,
    recorded_frames: fig.recorded.length,
    attempts_sent: fleet.attemptsSent,
    attempts_acked: fleet.attemptsAcked,
    attempts_counted: counted?.rows ?? null,
    attempts_counted_sum: counted?.sum ?? null,
    attempts_consistent: counted
      ? counted.rows === fleet.attemptsAcked && counted.sum === fleet.attemptsAcked
      : null,
    attempts_per_s: round(d.attemptsPerS, 1),
    attempts_skipped: fleet.skipped,
    attempt_requests: fleet.requests,
    /** Every request answered per second of the run: attempts POSTs, toggles and heartbeats. */
    requests_per_s: round((fleet.requests + toggles.sent + traffic.heartbeatsInRun) / d.runSeconds, 1),
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
    server_cpu_pct: cpu.server,
    server_rss_mb: d.serverRssMax,
    server_rss_mb_per_process: d.serverRssPerProcess,
    /** Mean CPU during the run, % of one core (100 = one core busy). */
    cpu_pct: cpu,
    /** Mean busy % of each CPU during the run (the servers are pinned to cpu0, the testers to the last). */
    cpu_busy_pct_per_cpu: resultCpuBusy(d.runSamples),
    /** Mean run-queue wait during the run, % of wall time (`resultRunQueueWait`). */
    run_queue_wait_pct: resultRunQueueWait(d.runSamples),
    machine_busy_before_pct: round(run.busyBefore, 1),
    tester_elu: round(fig.testerEluMax, 3),
    tester_elu_per_process: fig.testerElu,
    clock_skew_ms: fig.clockSkew,
    baseline: resultBaseline(parts.baselines),
    ratios: {
      push_p99_vs_baseline: d.pushRatio,
      attempts_per_s_vs_baseline: d.dbRatio,
      attempts_per_s_vs_attainable: d.attainableRatio,
    },
    targets: resultTargets(parts, d),
    series: resultSeries(parts, d),
  };
}
type LoadResult = ReturnType<typeof buildResult>;

/** The HTML report's summary: one row per figure, its value, its target and whether it is met. */
function summaryRows(result: LoadResult, parts: RunParts, d: Derived) {
  const { agentSocketsAtEnd } = parts;
  const { o } = parts.run;
  const { run, ramp, got, fig, check, baselines } = parts;
  const t = result.targets;
  const { pushSummary: p } = fig;
  const { atSettle, counted } = got;
  const rows: Array<[string, string, string, boolean | null]> = [
    [
      'valid measure (tester not the bottleneck)',
      check.valid ? 'yes' : `NO: ${check.invalid.join('; ')}`,
      '',
      check.valid,
    ],
    ['tester ELU (max over processes)', `${result.tester_elu}`, `≤ ${TESTER_ELU_MAX}`, t.tester_elu_ok],
    [
      'screens connected (full / lean)',
      `${ramp.expectedScreens} / ${o.screens} (${o.fullScreens} / ${o.leanScreens})`,
      '2000',
      t.screens_2000,
    ],
    ['changes/s', `${result.changes_per_s}`, '≥ 600', t.changes_per_s_600],
    [
      'push from commit p50 / p95 / p99 / max (ms)',
      `${p.p50} / ${p.p95} / ${p.p99} / ${p.max}`,
      `p99 ≤ ${d.p99Target}`,
      t.push_p99_ok,
    ],
    ['worst screen p99 (ms)', `${fig.worstScreenP99 ?? 'n/a'}`, '', null],
    [
      'push from request p50 / p99 (ms, full screens)',
      d.fromRequest ? `${d.fromRequest.p50} / ${d.fromRequest.p99}` : 'n/a',
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
      `${run.fleet.attemptsSent} / ${run.fleet.attemptsAcked} / ${counted?.rows ?? 'n/a'}`,
      'acked = counted',
      result.attempts_consistent,
    ],
    ['durable attempts/s', `${result.attempts_per_s}`, '≥ 2000', t.attempts_per_s_2000],
    [
      'agent sockets held through the run',
      agentSocketsAtEnd ? `${agentSocketsAtEnd.held} (${agentSocketsAtEnd.disconnects} disconnects)` : 'none',
      `${o.agents}`,
      agentSocketsAtEnd ? agentSocketsAtEnd.held === o.agents : null,
    ],
    [
      'server RSS max per process (MB)',
      `${d.serverRssPerProcess.join(' / ') || 'n/a'}`,
      '≤ 400',
      t.rss_400_mb,
    ],
    ['server CPU (% of one core, summed)', `${result.server_cpu_pct ?? 'n/a'}`, '', null],
    ['load tester CPU (% of one core)', `${result.cpu_pct.load_tester}`, '', null],
    ['MySQL CPU (% of one core)', `${result.cpu_pct.mysql}`, '', null],
    ['other processes CPU (% of one core)', `${result.cpu_pct.other_processes}`, '', null],
    ['busy % of each CPU (cpu0, cpu1, …)', result.cpu_busy_pct_per_cpu.join(' / '), '', null],
    [
      'run-queue wait, % of wall (server / tester max / MySQL)',
      `${result.run_queue_wait_pct.server ?? 'n/a'} / ${result.run_queue_wait_pct.tester_max ?? 'n/a'} / ${result.run_queue_wait_pct.mysql ?? 'n/a'}`,
      `tester ≤ ${TESTER_RUN_QUEUE_WAIT_WARN_PCT}`,
      result.run_queue_wait_pct.tester_max === undefined
        ? null
        : result.run_queue_wait_pct.tester_max <= TESTER_RUN_QUEUE_WAIT_WARN_PCT,
    ],
    [
      'baseline ws push p99 (ms), same frames',
      `${baselines.wsBase?.push_ms.p99 ?? 'n/a'} (${baselines.wsBase?.frames ?? 'n/a'} frames)`,
      '',
      null,
    ],
    ['push p99 / baseline', `${d.pushRatio ?? 'n/a'}`, `≤ ${d.ratioTarget}`, t.push_ratio_ok],
    ['baseline mysql2 attempts/s, same SQL', `${result.baseline.attempts_per_s ?? 'n/a'}`, '', null],
    ...configPushRows(parts.configPush),
    ['attempts/s / baseline', `${d.dbRatio ?? 'n/a'}`, `≥ ${d.dbRatioTarget}`, t.attempts_ratio_ok],
  ];
  return rows;
}

/** The summary rows of `config_push_ms` (p99 within 1 s for 500 agents). */
function configPushRows(push: ConfigPushResult | null): Array<[string, string, string, boolean | null]> {
  if (!push) return [];
  const p = push.push_ms;
  return [
    [
      `config push to ${push.agents} agents p50 / p99 / max (ms), ${push.rounds} changes`,
      `${p.p50} / ${p.p99} / ${p.max}${push.missed ? ` (${push.missed} missed)` : ''}`,
      'p99 ≤ 1000',
      p.count > 0 && push.missed === 0 && p.p99 <= 1000,
    ],
    [
      'baseline: every agent reads the config by HTTP at once, p50 / p99 (ms)',
      `${push.baseline_http_ms.p50} / ${push.baseline_http_ms.p99}`,
      '',
      null,
    ],
    [
      'load tester ELU while timing the config push',
      `${push.tester_elu}`,
      `≤ ${TESTER_ELU_MAX}`,
      push.tester_elu <= TESTER_ELU_MAX,
    ],
  ];
}

/** Writes the JSON result and the HTML report beside it, and the run's last lines on stderr. */
async function writeReport(result: LoadResult, parts: RunParts, d: Derived): Promise<void> {
  const { o } = parts.run;
  const { run, got, fig, check, baselines } = parts;
  await mkdir(path.dirname(o.out), { recursive: true });
  await writeFile(o.out, JSON.stringify(result, null, 2) + '\n');
  const html = o.out.replace(/\.json$/i, '') + '.html';
  const series = result.series;
  await writeFile(
    html,
    renderHtmlReport({
      title: `${check.valid ? '' : 'INVALID: '}Load test: ${o.screens} screens, ${o.agents} agents, ${run.urls.length} process(es), ${o.durationS} s`,
      summary: summaryRows(result, parts, d),
      histogram: fig.push.bins(40),
      series: {
        attemptsPerS: [{ name: 'attempts/s', values: series.attempts_per_s }],
        pushP99Ms: [{ name: 'push p99 from request', values: series.push_from_request_p99_ms }],
        cpuPct: [
          { name: 'server', values: series.server_cpu_pct },
          { name: 'load tester', values: series.load_tester_cpu_pct },
          { name: 'mysql', values: series.mysql_cpu_pct },
          { name: 'kernel irq', values: series.kernel_irq_cpu_pct },
          { name: 'other', values: series.other_cpu_pct },
          { name: 'machine', values: series.machine_cpu_pct },
        ],
        rssMb: series.server_rss_mb.map((values, i) => ({ name: `process ${i + 1}`, values })),
      },
      json: result,
    }),
  );
  log(
    `push p99 ${fig.pushSummary.p99} ms from commit (baseline ${baselines.wsBase?.push_ms.p99 ?? 'n/a'}), worst screen p99 ${fig.worstScreenP99 ?? 'n/a'},` +
      ` from request p99 ${d.fromRequest?.p99 ?? 'n/a'}, final-state mismatches ${d.mismatches ?? 'n/a'},` +
      ` attempts ${result.attempts_per_s}/s (baseline ${result.baseline.attempts_per_s ?? 'n/a'}), acked ${run.fleet.attemptsAcked}, counted ${got.counted?.rows ?? 'n/a'},` +
      (!run.ext
        ? ` server cpu ${result.server_cpu_pct}% rss ${d.serverRssPerProcess.join('/')} MB`
        : ' server not sampled (--url)') +
      `, tester ELU ${result.tester_elu}, tester run-queue wait ${result.run_queue_wait_pct.tester_max ?? 'n/a'}%`,
  );
  for (const warning of check.warnings) log(`warning: ${warning}`);
  if (!check.valid) log(`INVALID run, do not publish: ${check.invalid.join('; ')}`);
  log(`wrote ${o.out} and ${html}`);
}

/** Builds the run's result from `parts` and writes it to `--out` (JSON) and beside it (HTML). */
export async function writeLoadResult(parts: RunParts): Promise<void> {
  const d = derived(parts);
  await writeReport(buildResult(parts, d), parts, d);
}
