/**
 * Polls `GET /api/health` of several server processes in the background, a new probe every
 * `intervalMs` whether or not the previous one answered (a hung server still gets probed on time),
 * and keeps every answer, to tell afterwards when a process reported an outage and when it recovered.
 */

/** One probe. Times are `Date.now()` values (ms). */
export interface HealthProbe {
  url: string;
  sentAt: number;
  answeredAt: number;
  /** HTTP status, or `'error'` (no answer: refused, reset) or `'timeout'`. */
  status: number | 'error' | 'timeout';
  /** `data` of the answer: `{database: 'ok'|'down', redis: 'ok'|'down'|'off'}`. */
  data?: { database?: string; redis?: string };
}

/** Options of `HealthMonitor`. */
export interface HealthMonitorOptions {
  /** Time between probes of one process, in ms (default 200). */
  intervalMs?: number;
  /** A probe with no answer after this counts as `'timeout'`, in ms (default 8 000). */
  timeoutMs?: number;
  /** Most probes of one process in flight at once (default 50). */
  maxInFlight?: number;
}

/** See the module comment. */
export class HealthMonitor {
  /** Every answered probe, in answer order. */
  readonly probes: HealthProbe[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly inFlight = new Map<string, number>();
  private readonly pendingProbes = new Set<Promise<void>>();

  constructor(
    urls: string[],
    private readonly options: HealthMonitorOptions = {},
  ) {
    for (const url of urls) {
      this.inFlight.set(url, 0);
      this.timers.push(setInterval(() => this.probe(url), options.intervalMs ?? 200));
    }
  }

  /**
   * The first probe of `url` answered at or after `since` (ms) whose answer fits `match` (and, with
   * `sentSince`, sent at or after it), or undefined.
   */
  first(
    url: string,
    since: number,
    match: (probe: HealthProbe) => boolean,
    sentSince = 0,
  ): HealthProbe | undefined {
    return this.probes.find(
      (p) => p.url === url && p.answeredAt >= since && p.sentAt >= sentSince && match(p),
    );
  }

  /** The probes of `url` answered within [`from`, `to`] (ms). */
  between(url: string, from: number, to: number): HealthProbe[] {
    return this.probes.filter((p) => p.url === url && p.answeredAt >= from && p.answeredAt <= to);
  }

  /** Stops probing; resolves when the probes in flight are over. */
  async stop(): Promise<void> {
    this.timers.forEach(clearInterval);
    await Promise.all(this.pendingProbes);
  }

  private probe(url: string): void {
    if ((this.inFlight.get(url) ?? 0) >= (this.options.maxInFlight ?? 50)) return;
    this.inFlight.set(url, (this.inFlight.get(url) ?? 0) + 1);
    const sentAt = Date.now();
    const done = (async () => {
      const probe: HealthProbe = { url, sentAt, answeredAt: 0, status: 'error' };
      try {
        const res = await fetch(`${url}/api/health`, {
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 8_000),
        });
        probe.status = res.status;
        probe.data = ((await res.json().catch(() => null)) as { data?: HealthProbe['data'] } | null)?.data;
      } catch (err) {
        probe.status = (err as Error).name === 'TimeoutError' ? 'timeout' : 'error';
      }
      probe.answeredAt = Date.now();
      this.probes.push(probe);
      this.inFlight.set(url, (this.inFlight.get(url) ?? 1) - 1);
    })();
    this.pendingProbes.add(done);
    void done.finally(() => this.pendingProbes.delete(done));
  }
}
