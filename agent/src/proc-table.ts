/**
 * The process table the killer works on while it ends a family (Linux only): per process its
 * parent, process group, session, state, start and executable, read from `/proc/<pid>/stat` and
 * `/proc/<pid>/exe`. Refreshed incrementally: each refresh is one listing of `/proc` plus reads of
 * the pids not seen before (well under a millisecond on a lab machine), so the killer can look
 * again every few milliseconds while a program forks. Never the command line.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** One process as the family logic needs it. */
export interface ProcEntry {
  pid: number;
  ppid: number;
  /** Process group id (field 5 of `/proc/<pid>/stat`). */
  pgrp: number;
  /** Session id (field 6). */
  session: number;
  /** State letter (field 3): `Z` zombie, `X` dead, `T` stopped, `R`/`S`/`D` running or sleeping. */
  state: string;
  /** Start since boot in clock ticks (field 22): with the pid it names one instance. */
  start: number;
  /** Executable path (`/proc/<pid>/exe`, without ` (deleted)`), null when it cannot be read. */
  exe: string | null;
}

/** A snapshot of the table: pid → entry. */
export type ProcTable = ReadonlyMap<number, ProcEntry>;

/**
 * Parses one `/proc/<pid>/stat` line; null when it is not understood. `comm` may hold spaces and
 * parentheses, so the fields are read after the last `)`.
 */
export function parseProcStat(pid: number, stat: string): Omit<ProcEntry, 'exe'> | null {
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  // Index 0 here is field 3 (state): ppid 1, pgrp 2, session 3, starttime 19.
  const fields = stat.slice(close + 2).split(' ');
  const entry = {
    pid,
    state: fields[0] ?? '',
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    session: Number(fields[3]),
    start: Number(fields[19]),
  };
  if (![entry.ppid, entry.pgrp, entry.session, entry.start].every(Number.isInteger)) return null;
  return entry;
}

/** Whether the state letter is a process that runs nothing any more (a zombie or a dead task). */
export function isDeadState(state: string): boolean {
  return state === 'Z' || state === 'X' || state === 'x';
}

/** Whether `/proc` can be read the way this module does (Linux). */
export function procTableAvailable(root = '/proc'): boolean {
  return existsSync(`${root}/self/stat`);
}

/**
 * A live view of `root` (default `/proc`). `refresh()` lists the pids and reads only those not
 * seen before; `reread(pid)` reads one again (its state changes: stopped, zombie). A pid whose
 * start differs from the one held is a reused pid: a new entry.
 */
export class LiveProcTable {
  private readonly entries = new Map<number, ProcEntry>();

  constructor(private readonly root = '/proc') {}

  /** The entries of the last refresh. */
  get table(): ProcTable {
    return this.entries;
  }

  /**
   * Lists `/proc` again: forgets the pids gone, reads the new ones (newest first), answers the new
   * entries in pid order. Cost: one `readdir` plus two reads per new pid.
   */
  refresh(): ProcEntry[] {
    const seen = new Set<number>();
    const unread: number[] = [];
    for (const name of readdirSync(this.root)) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || pid <= 0) continue;
      seen.add(pid);
      if (!this.entries.has(pid)) unread.push(pid);
    }
    const fresh: ProcEntry[] = [];
    // First of all the newest processes (`recentPids`, also those started since the listing), then
    // the other new pids: a fork chain's current link lives about a millisecond; read it before it
    // exits.
    const recent = recentPids(this.root).filter((pid) => !this.entries.has(pid));
    for (const pid of recent) seen.add(pid);
    const first = new Set(recent);
    for (const pid of [...recent, ...unread.filter((pid) => !first.has(pid)).sort((a, b) => b - a)]) {
      const entry = this.read(pid);
      if (entry) {
        this.entries.set(pid, entry);
        fresh.push(entry);
      }
    }
    for (const pid of this.entries.keys()) if (!seen.has(pid)) this.entries.delete(pid);
    return fresh.reverse();
  }

  /** Reads one pid again (state, group); null and forgotten when it is gone. */
  reread(pid: number): ProcEntry | null {
    const entry = this.read(pid);
    if (entry) this.entries.set(pid, entry);
    else this.entries.delete(pid);
    return entry;
  }

  /** One process, or null when it is gone or not understood. */
  read(pid: number): ProcEntry | null {
    let stat: string;
    try {
      stat = readFileSync(`${this.root}/${pid}/stat`, 'utf8');
    } catch {
      return null;
    }
    const parsed = parseProcStat(pid, stat);
    if (!parsed) return null;
    let exe: string | null = null;
    try {
      exe = readlinkSync(`${this.root}/${pid}/exe`).replace(/ \(deleted\)$/, '');
    } catch {
      // A zombie or a kernel thread has none; another user's process needs root.
    }
    return { ...parsed, exe };
  }
}

/** How many absent pids in a row end `pidsAbove`'s probe. */
const PROBE_MISSES = 32;

/**
 * The processes with a pid above `from` (ascending), found by opening `/proc/<pid>` directly rather
 * than listing the folder: new pids are handed out upwards, so this finds a process started after
 * a listing within microseconds, where listing /proc again takes a while (milliseconds on a busy
 * machine) and a fork chain's link lives about one. Stops after `PROBE_MISSES` absent pids in a row.
 * A thread's id (reachable there but not listed) is left out: only thread-group leaders count.
 */
function pidsAbove(from: number, root = '/proc'): number[] {
  const found: number[] = [];
  for (let pid = from + 1, misses = 0; misses < PROBE_MISSES && pid < 4_194_304; pid++) {
    let status: string;
    try {
      status = readFileSync(`${root}/${pid}/status`, 'utf8');
    } catch {
      misses += 1;
      continue;
    }
    misses = 0;
    if (new RegExp(`^Tgid:\\s*${pid}$`, 'm').test(status)) found.push(pid);
  }
  return found;
}

/** How many pids below the last one handed out `recentPids` looks at. */
const RECENT_BACK = 16;

/**
 * The newest processes, newest first: the pids just below and above the last pid the kernel handed
 * out (the last field of `/proc/loadavg`), read directly. Pids wrap around (at `pid_max`), so the
 * highest pid listed is not the newest; this is. Empty when `/proc/loadavg` cannot be read (a test
 * root without it).
 */
export function recentPids(root = '/proc'): number[] {
  let last: number;
  try {
    last = Number(readFileSync(`${root}/loadavg`, 'utf8').trim().split(/\s+/)[4]);
  } catch {
    return [];
  }
  if (!Number.isInteger(last) || last <= 0) return [];
  const ahead = pidsAbove(last, root);
  const behind: number[] = [];
  for (let pid = last; pid > Math.max(0, last - RECENT_BACK); pid--)
    if (isProcess(pid, root)) behind.push(pid);
  return [...ahead.reverse(), ...behind];
}

/** Whether `pid` is a process (a thread-group leader), not a thread's id nor a free pid. */
function isProcess(pid: number, root: string): boolean {
  try {
    return new RegExp(`^Tgid:\\s*${pid}$`, 'm').test(readFileSync(`${root}/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}
