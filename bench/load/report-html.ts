/**
 * The HTML report written beside the JSON (same name, `.html`): one self-contained page, no scripts,
 * no external files; inline SVG charts of the push latency distribution from commit (ms, log scale) and
 * the per-second series (attempts/s, push p99 from request in ms, CPU in % of one core, RSS in MB).
 */

/** A line of a chart: one value per second (null: no value that second). */
interface ChartSeries {
  name: string;
  values: Array<number | null>;
}

/** What the page shows. */
export interface HtmlReportInput {
  title: string;
  /** Rows of the summary table: label, value, target (or ''), verdict (true ok, false missed, null n/a). */
  summary: Array<[string, string, string, boolean | null]>;
  histogram: Array<{ from: number; to: number; count: number }>;
  series: {
    attemptsPerS: ChartSeries[];
    pushP99Ms: ChartSeries[];
    cpuPct: ChartSeries[];
    rssMb: ChartSeries[];
  };
  /** The JSON result, shown folded at the end. */
  json: unknown;
}

const COLORS = ['#1f6feb', '#d1242f', '#1a7f37', '#9a6700', '#8250df', '#bf3989'];
const W = 760;
const H = 260;
const PAD = { l: 60, r: 16, t: 28, b: 36 };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A "nice" rounded axis maximum. */
function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

const fmt = (v: number) =>
  v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toPrecision(2);

/** The y of a value on a chart whose axis ends at `max` (SVG units, 0 at the bottom axis). */
const yScale = (max: number) => (v: number) => H - PAD.b - ((H - PAD.t - PAD.b) * v) / max;

/** The y axis' five grid lines with their labels, 0 to `max`. */
function yGrid(max: number, y: (v: number) => number): string[] {
  const parts: string[] = [];
  for (let k = 0; k <= 4; k++) {
    const v = (max * k) / 4;
    parts.push(
      `<line x1="${PAD.l}" x2="${W - PAD.r}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`,
      `<text x="${PAD.l - 6}" y="${y(v) + 4}" text-anchor="end">${fmt(v)}</text>`,
    );
  }
  return parts;
}

/** A line chart over seconds. */
function lineChart(title: string, unit: string, series: ChartSeries[]): string {
  const length = Math.max(1, ...series.map((s) => s.values.length));
  const max = niceMax(Math.max(0, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null))));
  const x = (i: number) => PAD.l + ((W - PAD.l - PAD.r) * i) / Math.max(1, length - 1);
  const y = yScale(max);
  const parts = yGrid(max, y);
  const step = Math.max(1, Math.ceil(length / 12));
  for (let i = 0; i < length; i += step) {
    parts.push(`<text x="${x(i)}" y="${H - PAD.b + 16}" text-anchor="middle">${i}</text>`);
  }
  parts.push(`<text x="${(W + PAD.l) / 2}" y="${H - 4}" text-anchor="middle">s</text>`);
  const legendStep = Math.min(170, (W - PAD.l - 20) / Math.max(1, series.length));
  series.forEach((s, n) => {
    const color = COLORS[n % COLORS.length]!;
    let d = '';
    let pen = false;
    s.values.forEach((v, i) => {
      if (v === null || !Number.isFinite(v)) {
        pen = false;
        return;
      }
      d += `${pen ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
      pen = true;
    });
    parts.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="1.8"/>`);
    parts.push(
      `<rect x="${PAD.l + 10 + n * legendStep}" y="8" width="12" height="4" fill="${color}"/>`,
      `<text x="${PAD.l + 26 + n * legendStep}" y="14">${esc(s.name)}</text>`,
    );
  });
  return `<figure><figcaption>${esc(title)} (${esc(unit)})</figcaption><svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img">${parts.join('')}</svg></figure>`;
}

/** Bars of the latency distribution (log-spaced bins). */
function histogramChart(bins: HtmlReportInput['histogram']): string {
  if (bins.length === 0) return '<p>No push latencies.</p>';
  const max = niceMax(Math.max(...bins.map((b) => b.count)));
  const bw = (W - PAD.l - PAD.r) / bins.length;
  const y = yScale(max);
  const parts = yGrid(max, y);
  bins.forEach((b, i) => {
    const x = PAD.l + i * bw;
    parts.push(
      `<rect x="${x.toFixed(1)}" y="${y(b.count).toFixed(1)}" width="${Math.max(1, bw - 1).toFixed(1)}" height="${(H - PAD.b - y(b.count)).toFixed(1)}" fill="#1f6feb"><title>${fmt(b.from)}–${fmt(b.to)} ms: ${b.count}</title></rect>`,
    );
    if (i % 5 === 0) {
      parts.push(
        `<text x="${x.toFixed(1)}" y="${H - PAD.b + 16}" text-anchor="middle">${fmt(b.from)}</text>`,
      );
    }
  });
  parts.push(`<text x="${(W + PAD.l) / 2}" y="${H - 4}" text-anchor="middle">ms (log scale)</text>`);
  return `<figure><figcaption>Push latency from commit: committed_at → frame on a screen (rows × screens per bin)</figcaption><svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img">${parts.join('')}</svg></figure>`;
}

/** The whole page. */
export function renderHtmlReport(input: HtmlReportInput): string {
  const rows = input.summary
    .map(
      ([label, value, target, ok]) =>
        `<tr><th>${esc(label)}</th><td>${esc(value)}</td><td>${esc(target)}</td><td class="${ok === null ? '' : ok ? 'ok' : 'ko'}">${ok === null ? '' : ok ? '✔' : '✘'}</td></tr>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(input.title)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1f2328;max-width:820px}
table{border-collapse:collapse;margin:12px 0}th,td{border-bottom:1px solid #eee;padding:4px 10px;text-align:left}
th{font-weight:600}.ok{color:#1a7f37}.ko{color:#d1242f}figure{margin:20px 0}figcaption{font-weight:600;margin-bottom:4px}
svg{font-size:11px;fill:#57606a;background:#fff}pre{background:#f6f8fa;padding:8px;overflow:auto;font-size:12px}
</style></head><body>
<h1>${esc(input.title)}</h1>
<table><thead><tr><th>figure</th><th>value</th><th>target</th><th></th></tr></thead><tbody>${rows}</tbody></table>
${histogramChart(input.histogram)}
${lineChart('Attempts acknowledged per second', 'attempts/s', input.series.attemptsPerS)}
${lineChart('Push p99 from request per second (full screens, by send time)', 'ms', input.series.pushP99Ms)}
${lineChart('CPU per second', '% of one core', input.series.cpuPct)}
${lineChart('Resident memory per server process', 'MB', input.series.rssMb)}
<details><summary>JSON result</summary><pre>${esc(JSON.stringify(input.json, null, 2))}</pre></details>
</body></html>
`;
}
