/**
 * A cheap «new process?» watch between two polls (Linux; agent/src/README.md, «Un programa nuevo se ve
 * enseguida»). Every `WATCH_EVERY_MS` it reads the last pid the kernel handed out (the last field of
 * `/proc/loadavg`, in the agent's own PID namespace); when it moved and one of the new pids is a live
 * process (not a thread's id: a browser making threads starts no program), it runs a scan at once,
 * through the caller's scan (the sweeper's chain: scans never overlap). A program started just after a
 * poll is then seen within about `WATCH_EVERY_MS` instead of a whole poll later. The poll stays the
 * floor: the watch only adds scans.
 *
 * Bound on a machine that starts processes all the time (a build, a shell loop): after `CHURN_AFTER`
 * triggered scans in a row that ended nothing, triggered scans are at least `CHURN_GAP_MS` apart, until
 * a look finds no new process or a scan ends something. A new program is then still seen within about
 * `CHURN_GAP_MS`, at most 1000 / `CHURN_GAP_MS` extra scans per second.
 */
import { readFileSync } from 'node:fs';
import { Periodic } from './periodic.js';

/**
 * Time between two looks at `/proc/loadavg` (ms). 100 ms: a new program is seen within about a tenth
 * of the one-second bar, while a look (one small read, about 20 µs) costs nothing an idle agent's CPU
 * shows; shorter buys little, as a scan and the kill take tens of ms anyway.
 */
export const WATCH_EVERY_MS = 100;

/** Triggered scans in a row that ended nothing before the watch slows down (churn). */
export const CHURN_AFTER = 5;

/**
 * Shortest time between two triggered scans while processes churn (ms): at most two extra scans a
 * second (a scan with 300 processes costs about 15 ms of CPU, bench/BENCHMARKS.md), and a new program
 * still seen within half the one-second bar.
 */
export const CHURN_GAP_MS = 500;

/** How many of the newest pids a look checks for a live process (a longer jump is taken as new). */
const LOOK_BACK = 32;

/** What the watch reads of the machine; the default reads `/proc`. */
export interface PidSource {
  /** The last pid handed out, or null when it cannot be read. */
  lastPid(): number | null;
  /** Whether `pid` is a live process (a thread-group leader), not a thread nor a free pid. */
  isProcess(pid: number): boolean;
}

/** `/proc` under `root`. */
export function procPidSource(root = '/proc'): PidSource {
  return {
    lastPid() {
      try {
        const last = Number(readFileSync(`${root}/loadavg`, 'utf8').trim().split(/\s+/)[4]);
        return Number.isInteger(last) && last > 0 ? last : null;
      } catch {
        return null;
      }
    },
    isProcess(pid) {
      try {
        return new RegExp(`^Tgid:\\s*${pid}$`, 'm').test(readFileSync(`${root}/${pid}/status`, 'utf8'));
      } catch {
        return false;
      }
    },
  };
}

/** Counters of the watch, for tests and the bench. */
export interface WatchStats {
  /** Looks at the last pid. */
  looks: number;
  /** Scans the watch ran. */
  scans: number;
}

/**
 * The watch. `scan` runs one scan and answers whether it ended something (or found a blocked
 * program); its failure is ignored here (the poll reports scan failures).
 */
export class NewProcessWatch {
  readonly stats: WatchStats = { looks: 0, scans: 0 };
  private last: number | null = null;
  /** The looks, `everyMs` after the end of each (null while stopped). */
  private loop: Periodic | null = null;
  private emptyInRow = 0;
  private lastScanAt = 0;

  constructor(
    private readonly scan: () => Promise<boolean>,
    private readonly source: PidSource = procPidSource(),
    private readonly everyMs = WATCH_EVERY_MS,
  ) {}

  /** Starts looking (a second call does nothing). */
  start(): void {
    if (this.loop !== null) return;
    this.last = this.source.lastPid();
    // A look never fails: its scan's failure is the poll's to report.
    this.loop = new Periodic(() => undefined);
    this.loop.every(
      () => this.look(),
      () => this.everyMs,
      this.everyMs,
      { fromEnd: true },
    );
  }

  /**
   * A scan is about to run (the poll's): what started until now is its business, so the watch
   * does not scan again for it.
   */
  scanning(): void {
    if (this.loop !== null) this.last = this.source.lastPid();
  }

  /** Stops the watch; answers the scan in progress, if any, to wait on. */
  async stop(): Promise<void> {
    const running = this.loop?.stop() ?? [];
    this.loop = null;
    await Promise.all(running);
  }

  /** One look: scan when a new process appeared (unless churning too soon after the last scan). */
  private async look(): Promise<void> {
    this.stats.looks += 1;
    const before = this.last;
    const now = this.source.lastPid();
    if (now === null || now === before) {
      if (now !== null) this.emptyInRow = 0;
      return;
    }
    if (!this.newProcess(before, now)) {
      this.last = now;
      this.emptyInRow = 0;
      return;
    }
    // Churning: leave `last` as it was, so the next look after the gap still sees the change.
    if (this.emptyInRow >= CHURN_AFTER && Date.now() - this.lastScanAt < CHURN_GAP_MS) return;
    this.last = now;
    this.lastScanAt = Date.now();
    this.stats.scans += 1;
    const found = await this.scan().catch(() => false);
    this.emptyInRow = found ? 0 : this.emptyInRow + 1;
  }

  /** Whether a pid in (`before`, `now`] is a live process (the newest `LOOK_BACK` looked at). */
  private newProcess(before: number | null, now: number): boolean {
    // Wrapped around pid_max, or a jump longer than the look: taken as new.
    if (before === null || now < before || now - before > LOOK_BACK) return true;
    for (let pid = now; pid > before; pid--) if (this.source.isProcess(pid)) return true;
    return false;
  }
}
