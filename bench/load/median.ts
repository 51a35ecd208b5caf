/**
 * `npm run bench:median -- A.json B.json C.json [--label TEXT]`
 *
 * Reads JSON results of the load tester (`npm run bench -- … --out FILE.json`, written by cli.ts) and
 * prints a Markdown table to stdout: one row per figure, one column per run (the file's base name) and
 * a last column with the median of the runs, so repeated runs of one configuration can be quoted as
 * one figure with their spread in view. Times are ms, CPU % of ONE core, memory MB. Exit code 2 when
 * no file is given or a file cannot be read.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { userPath } from '@concurso/testkit/environment';

/** Percentiles in ms, as `Histogram.summary()` writes them. */
interface LatencyFields {
  p50?: number | null;
  p95?: number | null;
  p99?: number | null;
  max?: number | null;
}

/**
 * The fields of cli.ts's result this table reads. Everything optional and nullable: the file is
 * untrusted JSON, older runs lack fields, and cli.ts writes null for what it did not measure (`--url`,
 * `--no-baselines`, no database).
 */
export interface LoadReport {
  config?: Record<string, unknown> | null;
  machine?: { cpus?: number | null } | null;
  valid?: boolean | null;
  tester_elu?: number | null;
  screens_connected?: number | null;
  screens_failed?: number | null;
  screen_resets?: number | null;
  screen_reconnects?: number | null;
  screens_stalled?: number | null;
  /** From the commit; `push_ms_from_commit` is the same figure. */
  push_ms?: LatencyFields | null;
  push_ms_worst_screen_p99?: number | null;
  push_ms_from_request?: LatencyFields | null;
  /** = `final_state_mismatches` since the push rework (before: deliveries missing when the run was cut). */
  events_lost?: number | null;
  final_state_mismatches?: number | null;
  final_state_compared?: number | null;
  changes_per_s?: number | null;
  push_frames_per_screen_per_s?: number | null;
  push_rows_per_frame?: number | null;
  attempts_sent?: number | null;
  attempts_acked?: number | null;
  attempts_counted?: number | null;
  attempts_counted_sum?: number | null;
  attempts_consistent?: boolean | null;
  attempts_per_s?: number | null;
  http_ms?: LatencyFields | null;
  /** The attempts POSTs alone (bench/BENCHMARKS.md quotes them). */
  http_ms_attempts?: LatencyFields | null;
  /** Policies pushed to the agents' sockets, null with `--config-push-rounds 0`. */
  config_push_ms?: { push_ms?: LatencyFields | null; missed?: number | null } | null;
  /** The agents' push-channel sockets at the end of the run. */
  agent_sockets?: { held?: number | null; policies?: number | null; disconnects?: number | null } | null;
  server_cpu_pct?: number | null;
  server_rss_mb?: number | null;
  server_rss_mb_per_process?: number[] | null;
  cpu_pct?: {
    load_tester?: number | null;
    mysql?: number | null;
    other_processes?: number | null;
  } | null;
  /** Busy % of each CPU (older files have none). */
  cpu_busy_pct_per_cpu?: number[] | null;
  /** Run-queue wait, % of wall time (older files have none). */
  run_queue_wait_pct?: { server?: number | null; tester_max?: number | null; mysql?: number | null } | null;
  baseline?: {
    push_ms?: LatencyFields | null;
    push_tester_run_queue_wait_pct?: number | null;
    attempts_per_s?: number | null;
  } | null;
  ratios?: {
    push_p99_vs_baseline?: number | null;
    attempts_per_s_vs_baseline?: number | null;
    attempts_per_s_vs_attainable?: number | null;
  } | null;
}

/** One run: its column name and its parsed JSON. */
export interface NamedReport {
  name: string;
  report: LoadReport;
}

/**
 * How a figure is printed: `ms` whole ms, `count` whole (a median of two may end in .5), `real` 1 decimal
 * below 100 and whole above, `ratio` 2 decimals (0.46 must not read as the 0.5 target), `yes` a check.
 */
type Format = 'ms' | 'count' | 'real' | 'ratio' | 'yes';

interface Figure {
  label: string;
  format: Format;
  pick: (r: LoadReport) => unknown;
}

const MISSING = '–';

/** A finite number, or null for anything else (absent, null, a string in a hand-edited file…). */
function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** Largest RSS of any server process: `server_rss_mb` is already the max; older files may only have the list. */
function rssMax(r: LoadReport): number | null {
  const max = num(r.server_rss_mb);
  if (max !== null) return max;
  const each = Array.isArray(r.server_rss_mb_per_process)
    ? r.server_rss_mb_per_process.map(num).filter((v): v is number => v !== null)
    : [];
  return each.length ? Math.max(...each) : null;
}

const FIGURES: Figure[] = [
  { label: 'valid (tester ELU <= 0.5, every screen connected)', format: 'yes', pick: (r) => r.valid },
  { label: 'tester ELU (max over processes)', format: 'ratio', pick: (r) => r.tester_elu },
  { label: 'screens connected', format: 'count', pick: (r) => r.screens_connected },
  { label: 'screens failed', format: 'count', pick: (r) => r.screens_failed },
  { label: 'push from commit p50 (ms)', format: 'ms', pick: (r) => r.push_ms?.p50 },
  { label: 'push from commit p95 (ms)', format: 'ms', pick: (r) => r.push_ms?.p95 },
  { label: 'push from commit p99 (ms)', format: 'ms', pick: (r) => r.push_ms?.p99 },
  { label: 'push from commit max (ms)', format: 'ms', pick: (r) => r.push_ms?.max },
  { label: 'worst screen p99 (ms)', format: 'ms', pick: (r) => r.push_ms_worst_screen_p99 },
  { label: 'push from request p50 (ms)', format: 'ms', pick: (r) => r.push_ms_from_request?.p50 },
  { label: 'push from request p99 (ms)', format: 'ms', pick: (r) => r.push_ms_from_request?.p99 },
  // Not `events_lost` of older reports: there it counted deliveries missing when the run was cut.
  { label: 'final-state mismatches', format: 'count', pick: (r) => r.final_state_mismatches },
  { label: '(screen, team) pairs compared', format: 'count', pick: (r) => r.final_state_compared },
  { label: 'screen resets', format: 'count', pick: (r) => r.screen_resets },
  { label: 'screen reconnects', format: 'count', pick: (r) => r.screen_reconnects },
  { label: 'screens stalled', format: 'count', pick: (r) => r.screens_stalled },
  { label: 'attempts sent', format: 'count', pick: (r) => r.attempts_sent },
  { label: 'attempts acked', format: 'count', pick: (r) => r.attempts_acked },
  { label: 'attempts counted (rows)', format: 'count', pick: (r) => r.attempts_counted },
  { label: 'attempts counted (sum of counters)', format: 'count', pick: (r) => r.attempts_counted_sum },
  { label: 'attempts consistent (acked = counted)', format: 'yes', pick: (r) => r.attempts_consistent },
  { label: 'attempts/s', format: 'real', pick: (r) => r.attempts_per_s },
  { label: 'HTTP p50 (ms)', format: 'ms', pick: (r) => r.http_ms?.p50 },
  { label: 'HTTP p99 (ms)', format: 'ms', pick: (r) => r.http_ms?.p99 },
  { label: 'attempts HTTP p50 (ms)', format: 'ms', pick: (r) => r.http_ms_attempts?.p50 },
  { label: 'attempts HTTP p99 (ms)', format: 'ms', pick: (r) => r.http_ms_attempts?.p99 },
  { label: 'policy push to agents p99 (ms)', format: 'ms', pick: (r) => r.config_push_ms?.push_ms?.p99 },
  { label: 'policy pushes missed', format: 'count', pick: (r) => r.config_push_ms?.missed },
  { label: 'agent sockets held at the end', format: 'count', pick: (r) => r.agent_sockets?.held },
  { label: 'agent socket disconnects', format: 'count', pick: (r) => r.agent_sockets?.disconnects },
  { label: 'changes/s', format: 'real', pick: (r) => r.changes_per_s },
  { label: 'push frames per screen per s', format: 'real', pick: (r) => r.push_frames_per_screen_per_s },
  { label: 'push rows per frame', format: 'real', pick: (r) => r.push_rows_per_frame },
  { label: 'server CPU (% of one core, summed)', format: 'real', pick: (r) => r.server_cpu_pct },
  { label: 'server RSS max of any process (MB)', format: 'real', pick: rssMax },
  { label: 'load tester CPU (%)', format: 'real', pick: (r) => r.cpu_pct?.load_tester },
  { label: 'MySQL CPU (%)', format: 'real', pick: (r) => r.cpu_pct?.mysql },
  { label: 'other processes CPU (%)', format: 'real', pick: (r) => r.cpu_pct?.other_processes },
  { label: 'cpu0 busy (%)', format: 'real', pick: (r) => r.cpu_busy_pct_per_cpu?.[0] },
  { label: 'cpu1 busy (%)', format: 'real', pick: (r) => r.cpu_busy_pct_per_cpu?.[1] },
  { label: 'server run-queue wait (% of wall)', format: 'real', pick: (r) => r.run_queue_wait_pct?.server },
  {
    label: 'tester run-queue wait, max process (% of wall)',
    format: 'real',
    pick: (r) => r.run_queue_wait_pct?.tester_max,
  },
  { label: 'MySQL run-queue wait (% of wall)', format: 'real', pick: (r) => r.run_queue_wait_pct?.mysql },
  {
    label: 'baseline ws: tester run-queue wait, max (% of wall)',
    format: 'real',
    pick: (r) => r.baseline?.push_tester_run_queue_wait_pct,
  },
  { label: 'baseline ws push p99, same frames (ms)', format: 'ms', pick: (r) => r.baseline?.push_ms?.p99 },
  { label: 'push p99 / baseline p99', format: 'ratio', pick: (r) => r.ratios?.push_p99_vs_baseline },
  { label: 'baseline mysql2 attempts/s, same SQL', format: 'real', pick: (r) => r.baseline?.attempts_per_s },
  { label: 'attempts/s / baseline', format: 'ratio', pick: (r) => r.ratios?.attempts_per_s_vs_baseline },
  {
    label: 'attempts/s / min(offered, baseline)',
    format: 'ratio',
    pick: (r) => r.ratios?.attempts_per_s_vs_attainable,
  },
];

/** Median of `values` (mean of the two middle ones for an even count); null when empty. */
export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function format(value: number | null, how: Exclude<Format, 'yes'>): string {
  if (value === null) return MISSING;
  if (how === 'ratio') return value.toFixed(2);
  if (how === 'ms') return value.toFixed(0);
  if (how === 'count') return Number.isInteger(value) ? String(value) : value.toFixed(1);
  return Math.abs(value) < 100 ? value.toFixed(1) : value.toFixed(0);
}

/** A yes/no figure: each run's answer, and in the median column how many runs said yes. */
function checkRow(values: unknown[]): string[] {
  const judged = values.filter((v) => typeof v === 'boolean');
  return [
    ...values.map((v) => (v === true ? 'yes' : v === false ? 'no' : MISSING)),
    judged.length ? `${judged.filter((v) => v).length}/${judged.length} yes` : MISSING,
  ];
}

/** `screens=2000 agents=500 batch=[1,5] …` */
function configLine(config: Record<string, unknown>): string {
  return Object.entries(config)
    .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(' ');
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

/**
 * The Markdown summary of several load-test runs: an optional `### label` heading, a line with the
 * core count (`cores`, passed in so the output is reproducible) and the runs' `config`, then a table with
 * one row per figure, one column per run and a `median` column. The median is taken over the runs that
 * have the figure (for an even count, the mean of the two middle values); a figure no run has prints
 * "–". Ratios are the median of each run's own ratio, not a ratio of medians. Whole numbers for ms and
 * counts, 1 decimal for rates and CPU below 100, 2 for ratios.
 */
export function medianTable(runs: NamedReport[], options: { cores: number; label?: string }): string {
  const out: string[] = [];
  if (options.label) out.push(`### ${options.label}`, '');

  const recorded = [...new Set(runs.map((r) => num(r.report.machine?.cpus)).filter((c) => c !== null))];
  const where =
    recorded.length && (recorded.length > 1 || recorded[0] !== options.cores)
      ? ` (the runs recorded ${recorded.join(' / ')} CPUs)`
      : '';
  out.push(`${runs.length} run(s) on ${options.cores} cores${where}.`);
  // One config line when the runs agree (the usual case: repeats of one command); else one per run.
  const configs = runs.map((r) =>
    r.report.config && typeof r.report.config === 'object' ? configLine(r.report.config) : null,
  );
  const known = configs.filter((c) => c !== null);
  if (known.length && known.length === configs.length && new Set(known).size === 1) {
    out.push(`Config: \`${known[0]}\``);
  } else if (known.length) {
    for (const [i, c] of configs.entries()) out.push(`- ${runs[i]!.name}: \`${c ?? MISSING}\``);
  }
  out.push('');

  const rows: string[][] = [['figure', ...runs.map((r) => cell(r.name)), 'median']];
  for (const { label, format: how, pick } of FIGURES) {
    if (how === 'yes') {
      rows.push([label, ...checkRow(runs.map((r) => pick(r.report)))]);
      continue;
    }
    const values = runs.map((r) => num(pick(r.report)));
    const present = values.filter((v) => v !== null);
    rows.push([label, ...values.map((v) => format(v, how)), format(median(present), how)]);
  }

  const widths = rows[0]!.map((_, c) => Math.max(3, ...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    `| ${r.map((s, c) => (c === 0 ? s.padEnd(widths[c]!) : s.padStart(widths[c]!))).join(' | ')} |`;
  out.push(line(rows[0]!));
  out.push(`| ${widths.map((w, c) => (c === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`);
  for (const r of rows.slice(1)) out.push(line(r));
  return out.join('\n') + '\n';
}

function fail(message: string): never {
  process.stderr.write(`bench:median: ${message}\n`);
  process.exit(2);
}

function main(): void {
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options: { label: { type: 'string' } } });
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  const files = parsed.positionals;
  if (files.length === 0) fail('no file; usage: npm run bench:median -- A.json B.json … [--label TEXT]');
  const runs = files.map((file): NamedReport => {
    let report: unknown;
    try {
      report = JSON.parse(readFileSync(userPath(file), 'utf8'));
    } catch (err) {
      fail(`cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!report || typeof report !== 'object' || Array.isArray(report)) fail(`${file} is not a JSON object`);
    return { name: path.basename(file, path.extname(file)), report: report as LoadReport };
  });
  process.stdout.write(medianTable(runs, { cores: os.availableParallelism(), label: parsed.values.label }));
}

// Only as a command: the test imports medianTable without running it.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
