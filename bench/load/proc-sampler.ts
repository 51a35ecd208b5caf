/**
 * Samples processes from /proc every second (Linux): CPU as % of ONE core (utime + stime over wall
 * time; 100 = one core busy) and resident memory (VmRSS, MB). Tracks the server processes, plus the
 * load tester itself, MySQL/MariaDB and Redis when found, and the whole machine (/proc/stat), so a
 * report can tell who used the 2 cores. It also reads how long each tracked process waited for a CPU
 * while it could run (the run queue, /proc/<pid>/task/<tid>/schedstat): a tester's event-loop
 * utilisation does not see that wait, yet every frame it reads late by it counts as push latency.
 * Sample times are ms since the run's t0 (metrics.now()).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { now } from './metrics.js';

const CLK_TCK = 100; // Linux USER_HZ

/** One sample (values over the second before `t`). */
export interface ProcSample {
  /** ms since t0. */
  t: number;
  /** Server processes summed, % of one core. */
  serverCpu: number;
  /** Per server process, MB (0 when gone). */
  serverRss: number[];
  /** Named helpers (`load_tester`, `mysql`, `redis`), % of one core. */
  others: Record<string, number>;
  /** Whole machine busy, % of one core (up to 100 x cores). */
  machineCpu: number;
  /** Kernel interrupt work (irq + softirq: network), % of one core. */
  irqCpu: number;
  /** Everything else on the machine (other users' builds and tests...), % of one core. */
  otherCpu: number;
  /** Busy % of each CPU (cpu0, cpu1, …: the pinning puts the servers on the first, the testers on the last). */
  cpuBusy: number[];
  /**
   * Run-queue wait, % of wall time: how long the threads of a process were ready to run and waited for
   * a CPU, summed over its threads. `server` sums the server processes; each name of `others` sums its
   * processes; `tester_max` is the most any one load-tester process waited (the one whose reads were
   * the latest).
   */
  runQueueWait: Record<string, number>;
}

/** CPU time of process `pid` so far (utime + stime of /proc/<pid>/stat), in jiffies; null if gone. */
export function ticks(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * [busy, total, irq + softirq] jiffies of the whole machine (/proc/stat; busy leaves out idle, iowait
 * and steal). Interrupt time is the kernel's own work, mostly loopback TCP here: no process owns it.
 */
export function machineTicks(): [number, number, number] {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
  const notBusy = (cpu[3] ?? 0) + (cpu[4] ?? 0) + (cpu[7] ?? 0);
  return [total - notBusy, total, (cpu[5] ?? 0) + (cpu[6] ?? 0)];
}

/**
 * Nanoseconds the threads of `pid` spent waiting on a run queue so far (the second field of each
 * /proc/<pid>/task/<tid>/schedstat, summed); null if the process is gone or the kernel has no
 * schedstat.
 */
function runQueueWaitNs(pid: number): number | null {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  let sum = 0;
  let read = false;
  for (const tid of tids) {
    try {
      sum += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]);
      read = true;
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return read ? sum : null;
}

/** [busy, total] jiffies of each CPU (/proc/stat's `cpuN` lines, busy as in `machineTicks`). */
function cpuTicks(): Array<[number, number]> {
  return readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .filter((line) => /^cpu\d+ /.test(line))
    .map((line) => {
      const f = line.trim().split(/\s+/).slice(1).map(Number);
      const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
      return [total - (f[3] ?? 0) - (f[4] ?? 0) - (f[7] ?? 0), total];
    });
}

/** Pids whose command name (/proc/<pid>/comm) is one of `names`. */
export function findPids(names: string[]): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (names.includes(readFileSync(`/proc/${entry}/comm`, 'utf8').trim())) out.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** Samples every second until `stop()`. */
export class ProcSampler {
  readonly samples: ProcSample[] = [];
  private timer?: NodeJS.Timeout;
  private last?: {
    t: number;
    server: Array<number | null>;
    others: Record<string, number | null>;
    machine: [number, number, number];
    cpus: Array<[number, number]>;
    /** Run-queue wait so far of each server pid, then of each pid of `others` (ns). */
    waits: Map<number, number | null>;
  };

  /**
   * @param serverPids the server processes (none with `--url`)
   * @param others named pids to follow (load tester, database, redis)
   * @param t0 origin of times (ms, metrics.now())
   */
  constructor(
    private readonly serverPids: number[],
    private readonly others: Record<string, number[]>,
    private readonly t0: number,
  ) {}

  private read() {
    const others: Record<string, number | null> = {};
    for (const [name, pids] of Object.entries(this.others)) {
      const values = pids.map(ticks).filter((v): v is number => v !== null);
      others[name] = values.length ? values.reduce((a, b) => a + b, 0) : null;
    }
    const waits = new Map<number, number | null>();
    for (const pid of [...this.serverPids, ...Object.values(this.others).flat()]) {
      waits.set(pid, runQueueWaitNs(pid));
    }
    return {
      t: now(),
      server: this.serverPids.map(ticks),
      others,
      machine: machineTicks(),
      cpus: cpuTicks(),
      waits,
    };
  }

  /** Run-queue wait of each group over the last interval, % of wall (see `ProcSample.runQueueWait`). */
  private waitPct(prev: Map<number, number | null>, cur: Map<number, number | null>, ms: number) {
    const pct = (pid: number) => {
      const a = prev.get(pid);
      const b = cur.get(pid);
      return a === null || a === undefined || b === null || b === undefined ? 0 : ((b - a) / 1e6 / ms) * 100;
    };
    const sum = (pids: number[]) => pids.reduce((total, pid) => total + pct(pid), 0);
    const out: Record<string, number> = { server: sum(this.serverPids) };
    for (const [name, pids] of Object.entries(this.others)) out[name] = sum(pids);
    out.tester_max = Math.max(0, ...(this.others.load_tester ?? []).map(pct));
    return out;
  }

  start(): void {
    this.last = this.read();
    this.timer = setInterval(() => this.sample(), 1_000);
  }

  private sample(): void {
    const cur = this.read();
    const prev = this.last!;
    const seconds = (cur.t - prev.t) / 1000;
    const pct = (a: number | null | undefined, b: number | null | undefined) =>
      a === null || a === undefined || b === null || b === undefined
        ? 0
        : ((b - a) / CLK_TCK / seconds) * 100;
    const cores = (cur.machine[1] - prev.machine[1]) / CLK_TCK / seconds;
    const serverCpu = cur.server.reduce<number>((sum, v, i) => sum + pct(prev.server[i], v), 0);
    const others = Object.fromEntries(
      Object.keys(this.others).map((k) => [k, pct(prev.others[k], cur.others[k])]),
    );
    const machineCpu =
      cores > 0 ? ((cur.machine[0] - prev.machine[0]) / (cur.machine[1] - prev.machine[1])) * cores * 100 : 0;
    const irqCpu =
      cores > 0 ? ((cur.machine[2] - prev.machine[2]) / (cur.machine[1] - prev.machine[1])) * cores * 100 : 0;
    const cpuBusy = cur.cpus.map(([busy, total], i) => {
      const [busy0, total0] = prev.cpus[i] ?? [busy, total];
      return total > total0 ? ((busy - busy0) / (total - total0)) * 100 : 0;
    });
    const known = serverCpu + irqCpu + Object.values(others).reduce((a, b) => a + b, 0);
    this.samples.push({
      t: cur.t - this.t0,
      serverCpu,
      serverRss: this.serverPids.map(rssMb),
      others,
      machineCpu,
      irqCpu,
      otherCpu: Math.max(0, machineCpu - known),
      cpuBusy,
      runQueueWait: this.waitPct(prev.waits, cur.waits, cur.t - prev.t),
    });
    this.last = cur;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Samples taken between `from` and `to` (ms since t0). */
  window(from: number, to: number): ProcSample[] {
    return this.samples.filter((s) => s.t > from && s.t <= to + 500);
  }
}

/**
 * `jiffies` of CPU time (/proc's unit, `CLK_TCK` a second) spent over `ms` of wall time, as % of one
 * core (100 = one core busy); 0 for an empty window.
 */
export function jiffiesPct(jiffies: number, ms: number): number {
  return ms > 0 ? (jiffies / CLK_TCK / (ms / 1000)) * 100 : 0;
}

/** Mean of a list (0 when empty). */
export function mean(values: number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

/** Busy CPU of the whole machine over `ms` (% of one core). */
export async function machineBusy(ms = 1_000): Promise<number> {
  const a = machineTicks();
  await new Promise((r) => setTimeout(r, ms));
  const b = machineTicks();
  const cores = (b[1] - a[1]) / CLK_TCK / (ms / 1000);
  return b[1] > a[1] ? ((b[0] - a[0]) / (b[1] - a[1])) * cores * 100 : 0;
}

/**
 * Waits (at most `maxS` seconds) until the machine is quiet: busy below `thresholdPct` % of one core
 * for 3 s in a row, so other work on a shared machine does not blur the figures. Answers the last busy %.
 */
export async function waitForQuiet(maxS: number, thresholdPct: number, log: (line: string) => void) {
  const deadline = Date.now() + maxS * 1000;
  let quiet = 0;
  let busy = await machineBusy();
  let lastLog = Date.now();
  while (Date.now() < deadline) {
    if (busy < thresholdPct) {
      if (++quiet >= 3) return busy;
    } else quiet = 0;
    if (Date.now() - lastLog > 10_000) {
      log(`machine busy ${busy.toFixed(0)} % of one core; waiting for it to calm down…`);
      lastLog = Date.now();
    }
    busy = await machineBusy();
  }
  return busy;
}
