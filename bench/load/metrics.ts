/**
 * Latency bookkeeping for the load tester: a shared monotonic clock and a fixed-size log-linear
 * histogram. Every value here is in milliseconds (ms).
 */

/**
 * Monotonic time in ms (CLOCK_MONOTONIC through libuv): one clock for every thread and process of the
 * machine, so a send time taken in the main thread and an arrival time taken in a screen worker or
 * in the ws baseline's child process can be subtracted.
 */
export function now(): number {
  const [s, ns] = process.hrtime();
  return s * 1e3 + ns / 1e6;
}

/** Percentiles of a histogram, in ms, rounded to 0.01 ms. */
export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** Values below this (ms) go to linear buckets of `LINEAR_STEP_MS`; above, to buckets 1 % wide. */
const LINEAR_LIMIT_MS = 1;
const LINEAR_STEP_MS = 0.01;
const LINEAR_BUCKETS = Math.round(LINEAR_LIMIT_MS / LINEAR_STEP_MS);
const LOG_BASE = Math.log(1.01);
/** Up to 1e7 ms (almost 3 h): more than any run lasts. */
const LOG_BUCKETS = Math.ceil(Math.log(1e7 / LINEAR_LIMIT_MS) / LOG_BASE) + 1;
const BUCKETS = LINEAR_BUCKETS + LOG_BUCKETS;

/** Lower bound (ms) of bucket `i`. */
function bucketLow(i: number): number {
  return i < LINEAR_BUCKETS
    ? i * LINEAR_STEP_MS
    : LINEAR_LIMIT_MS * Math.exp((i - LINEAR_BUCKETS) * LOG_BASE);
}

/** Upper bound (ms) of bucket `i`. */
function bucketHigh(i: number): number {
  return bucketLow(i + 1);
}

/**
 * A latency histogram in ms: 0.01 ms buckets below 1 ms, then buckets 1 % wide up to 1e7 ms, so a
 * percentile is exact to 1 % whatever the count. Negative values (clock jitter) count as 0.
 */
export class Histogram {
  readonly counts = new Float64Array(BUCKETS);
  count = 0;
  sum = 0;
  max = 0;

  /** Adds one value (ms), `weight` times (default once; a frame of N rows counts N times). */
  add(ms: number, weight = 1): void {
    if (!(weight > 0)) return;
    const v = ms > 0 ? ms : 0;
    let i: number;
    if (v < LINEAR_LIMIT_MS) i = Math.floor(v / LINEAR_STEP_MS);
    else i = LINEAR_BUCKETS + Math.floor(Math.log(v / LINEAR_LIMIT_MS) / LOG_BASE);
    if (i >= BUCKETS) i = BUCKETS - 1;
    this.counts[i]! += weight;
    this.count += weight;
    this.sum += v * weight;
    if (v > this.max) this.max = v;
  }

  /** Adds every count of `other` to this one. */
  merge(other: Histogram): void {
    for (let i = 0; i < BUCKETS; i++) this.counts[i]! += other.counts[i]!;
    this.count += other.count;
    this.sum += other.sum;
    if (other.max > this.max) this.max = other.max;
  }

  /** The value (ms) at or below which `p` percent of the values fall (bucket midpoint; 0 when empty). */
  percentile(p: number): number {
    if (this.count === 0) return 0;
    const rank = Math.max(1, Math.ceil((p / 100) * this.count));
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.counts[i]!;
      if (seen >= rank) return Math.min(this.max, (bucketLow(i) + bucketHigh(i)) / 2);
    }
    return this.max;
  }

  /** count, p50, p95, p99, max and mean, in ms. */
  summary(): LatencySummary {
    const r = (v: number) => Math.round(v * 100) / 100;
    return {
      count: this.count,
      p50: r(this.percentile(50)),
      p95: r(this.percentile(95)),
      p99: r(this.percentile(99)),
      max: r(this.max),
      mean: r(this.count ? this.sum / this.count : 0),
    };
  }

  /**
   * The distribution regrouped into `bins` buckets equally wide on a log scale between the smallest
   * and the largest value seen, for charts: `[{ from, to, count }]` with bounds in ms.
   */
  bins(bins = 40): Array<{ from: number; to: number; count: number }> {
    if (this.count === 0) return [];
    let first = 0;
    while (this.counts[first] === 0) first++;
    const lo = Math.max(LINEAR_STEP_MS, bucketLow(first));
    const hi = Math.max(lo * 1.01, this.max);
    const ratio = Math.pow(hi / lo, 1 / bins);
    const out = Array.from({ length: bins }, (_, k) => ({
      from: lo * Math.pow(ratio, k),
      to: lo * Math.pow(ratio, k + 1),
      count: 0,
    }));
    for (let i = 0; i < BUCKETS; i++) {
      const c = this.counts[i]!;
      if (c === 0) continue;
      const mid = Math.max(lo, (bucketLow(i) + bucketHigh(i)) / 2);
      const k = Math.min(bins - 1, Math.max(0, Math.floor(Math.log(mid / lo) / Math.log(ratio))));
      out[k]!.count += c;
    }
    return out;
  }

  /** A plain copy to post between threads. */
  toJSON(): { counts: Float64Array; count: number; sum: number; max: number } {
    return { counts: this.counts, count: this.count, sum: this.sum, max: this.max };
  }

  /** Rebuilds a histogram posted with `toJSON()`. */
  static from(data: { counts: Float64Array; count: number; sum: number; max: number }): Histogram {
    const h = new Histogram();
    h.counts.set(data.counts);
    h.count = data.count;
    h.sum = data.sum;
    h.max = data.max;
    return h;
  }
}

/** Histograms per whole second of a run (index = second since the run started). */
export class PerSecond {
  private readonly seconds: Histogram[] = [];

  /** Adds `ms` to the histogram of second `second` (>= 0). */
  add(second: number, ms: number): void {
    const s = Math.max(0, Math.floor(second));
    while (this.seconds.length <= s) this.seconds.push(new Histogram());
    this.seconds[s]!.add(ms);
  }

  /** p99 (ms) of each second, null for a second without values. */
  p99(length: number): Array<number | null> {
    return Array.from({ length }, (_, s) => {
      const h = this.seconds[s];
      return h && h.count > 0 ? Math.round(h.percentile(99) * 100) / 100 : null;
    });
  }
}

/** Rounds to `digits` decimals. */
export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
