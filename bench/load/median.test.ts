import { describe, expect, it } from 'vitest';
import { median, medianTable, type LoadReport } from './median.js';

/** A run as cli.ts writes it, cut down to the fields the table reads. */
function report(p99: number, attemptsPerS: number, over: Partial<LoadReport> = {}): LoadReport {
  return {
    config: { screens: 2000, agents: 500, processes: 1, batch: [1, 5] },
    machine: { cpus: 2 },
    valid: true,
    tester_elu: 0.31,
    screens_connected: 2000,
    screens_failed: 0,
    screen_resets: 0,
    screen_reconnects: 0,
    screens_stalled: 0,
    push_ms: { p50: 20.4, p95: 60, p99, max: p99 * 2 },
    push_ms_worst_screen_p99: p99 + 10,
    push_ms_from_request: { p50: 40, p99: p99 + 50 },
    events_lost: 0,
    final_state_mismatches: 0,
    final_state_compared: 25_000,
    attempts_sent: 100_000,
    attempts_acked: 100_000,
    attempts_counted: 100_000,
    attempts_counted_sum: 100_000,
    attempts_consistent: true,
    attempts_per_s: attemptsPerS,
    http_ms: { p50: 3.2, p95: 10, p99: 30.6 },
    changes_per_s: 600.4,
    push_frames_per_screen_per_s: 19.96,
    push_rows_per_frame: 30.12,
    server_cpu_pct: 95.2,
    server_rss_mb: 210.4,
    server_rss_mb_per_process: [210.4],
    cpu_pct: { load_tester: 60.1, mysql: 30, other_processes: 1.2 },
    baseline: { push_ms: { p50: 2, p95: 4, p99: 5 }, attempts_per_s: 5000 },
    ratios: { push_p99_vs_baseline: p99 / 5, attempts_per_s_vs_baseline: attemptsPerS / 5000 },
    ...over,
  };
}

/** The table's cells of the row whose first cell is `label`. */
function row(table: string, label: string): string[] {
  const line = table.split('\n').find((l) => l.startsWith(`| ${label} `));
  expect(line, label).toBeDefined();
  return line!
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());
}

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });
});

describe('medianTable', () => {
  const three = [
    { name: 'p1-a', report: report(80, 2100) },
    { name: 'p1-b', report: report(120, 1900, { attempts_consistent: false }) },
    { name: 'p1-c', report: report(90, 2050.55) },
  ];

  it('prints one column per run and the median of the runs', () => {
    const table = medianTable(three, { cores: 2, label: 'one process' });
    expect(table.startsWith('### one process\n')).toBe(true);
    expect(table).toContain('3 run(s) on 2 cores.');
    expect(table).toContain('Config: `screens=2000 agents=500 processes=1 batch=[1,5]`');
    expect(row(table, 'figure')).toEqual(['figure', 'p1-a', 'p1-b', 'p1-c', 'median']);
    expect(row(table, 'push from commit p99 (ms)')).toEqual([
      'push from commit p99 (ms)',
      '80',
      '120',
      '90',
      '90',
    ]);
    expect(row(table, 'worst screen p99 (ms)').at(-1)).toBe('100');
    expect(row(table, 'push from request p99 (ms)').at(-1)).toBe('140');
    expect(row(table, 'tester ELU (max over processes)').at(-1)).toBe('0.31');
    expect(row(table, 'final-state mismatches').at(-1)).toBe('0');
    expect(row(table, 'attempts/s')).toEqual(['attempts/s', '2100', '1900', '2051', '2051']);
    expect(row(table, 'push p99 / baseline p99').at(-1)).toBe('18.00');
    expect(row(table, 'attempts/s / baseline').at(-1)).toBe('0.41');
    expect(row(table, 'push rows per frame').at(-1)).toBe('30.1');
    expect(row(table, 'HTTP p50 (ms)').at(-1)).toBe('3');
    expect(row(table, 'attempts consistent (acked = counted)')).toEqual([
      'attempts consistent (acked = counted)',
      'yes',
      'no',
      'yes',
      '2/3 yes',
    ]);
  });

  it('prints the attempts HTTP times, the policy push to agents and the agents sockets', () => {
    const table = medianTable(
      [120, 80, 100].map((p99, i) => ({
        name: `r${i}`,
        report: report(p99, 2000, {
          http_ms_attempts: { p50: 20 + i, p99: 200 + 10 * i },
          config_push_ms: { push_ms: { p50: 100, p99: 300 - 50 * i }, missed: i === 1 ? 2 : 0 },
          agent_sockets: { held: 500, policies: 3000, disconnects: 0 },
        }),
      })),
      { cores: 2 },
    );
    expect(row(table, 'attempts HTTP p50 (ms)')).toEqual(['attempts HTTP p50 (ms)', '20', '21', '22', '21']);
    expect(row(table, 'attempts HTTP p99 (ms)').at(-1)).toBe('210');
    expect(row(table, 'policy push to agents p99 (ms)').slice(1)).toEqual(['300', '250', '200', '250']);
    expect(row(table, 'policy pushes missed').at(-1)).toBe('0');
    expect(row(table, 'agent sockets held at the end').at(-1)).toBe('500');
    expect(row(table, 'agent socket disconnects').at(-1)).toBe('0');
  });

  it('averages the two middle runs of an even count', () => {
    const table = medianTable(
      [
        { name: 'a', report: report(80, 2000, { final_state_mismatches: 0 }) },
        { name: 'b', report: report(100, 2001, { final_state_mismatches: 1, valid: false }) },
      ],
      { cores: 2 },
    );
    expect(row(table, 'push from commit p99 (ms)').at(-1)).toBe('90');
    expect(row(table, 'attempts/s').at(-1)).toBe('2001');
    expect(row(table, 'final-state mismatches').at(-1)).toBe('0.5');
    expect(row(table, 'valid (tester ELU <= 0.5, every screen connected)')).toEqual([
      'valid (tester ELU <= 0.5, every screen connected)',
      'yes',
      'no',
      '1/2 yes',
    ]);
  });

  it('prints – for a missing figure and takes the median over the runs that have it', () => {
    const table = medianTable(
      [
        // --url runs have no server CPU nor RSS; --no-baselines runs no baseline.
        { name: 'a', report: report(80, 2000, { server_cpu_pct: null, baseline: null, ratios: null }) },
        { name: 'b', report: report(100, 2000, { server_cpu_pct: null, server_rss_mb: undefined }) },
      ],
      { cores: 4 },
    );
    expect(row(table, 'server CPU (% of one core, summed)')).toEqual([
      'server CPU (% of one core, summed)',
      '–',
      '–',
      '–',
    ]);
    expect(row(table, 'baseline ws push p99, same frames (ms)')).toEqual([
      'baseline ws push p99, same frames (ms)',
      '–',
      '5',
      '5',
    ]);
    // A report from before the push rework (bench/BENCHMARKS.md): its events_lost meant something else and is
    // not shown as mismatches.
    const old = medianTable(
      [{ name: 'old', report: report(80, 2000, { final_state_mismatches: undefined, events_lost: 7 }) }],
      { cores: 2 },
    );
    expect(row(old, 'final-state mismatches')).toEqual(['final-state mismatches', '–', '–']);
    // Without server_rss_mb, the largest of the per-process list.
    expect(row(table, 'server RSS max of any process (MB)').slice(1)).toEqual(['210', '210', '210']);
    expect(table).toContain('2 run(s) on 4 cores (the runs recorded 2 CPUs).');
  });
});
