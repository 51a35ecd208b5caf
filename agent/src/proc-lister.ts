/**
 * The process list on Linux read straight from `/proc`, without starting `ps`. ps-list runs `ps`
 * twice per call and then reads every `/proc/<pid>/exe` anyway; with 300 processes those two `ps`
 * cost the machine several times what the agent itself spends per poll (bench/BENCHMARKS.md, "The agent
 * with fingerprints, what ran, and 300 running processes"). Here each poll is one directory listing plus, per process, one read of `/proc/<pid>/stat`
 * and one `readlink` of `/proc/<pid>/exe`. Same shape as ps-list's answer: pid, ppid, name (the
 * executable's file name, or `comm` when the path cannot be read), path, start time. Never the
 * command line.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { recentPids } from './proc-table.js';
import type { ProcessLister, RunningProcess } from './scanner.js';

/** How many times one listing probes again above what it read when a new process already exited. */
const FOLLOW_UPS = 3;

/** Linux's USER_HZ: the unit of `starttime` in `/proc/<pid>/stat` (100 on every mainstream arch). */
const CLOCK_TICKS_PER_S = 100;

/** Boot time in ms since the epoch (`btime` of `<root>/stat`). */
function bootTimeMs(root: string): number {
  const match = /^btime (\d+)$/m.exec(readFileSync(`${root}/stat`, 'utf8'));
  return match ? Number(match[1]) * 1000 : 0;
}

/**
 * One process from its `/proc/<pid>/stat` line (`pid (comm) state ppid ... starttime ...`), or null
 * when it vanished meanwhile or the line is not understood. `comm` may hold spaces and parentheses,
 * so the fields are read after the last `)`.
 */
export function parseStat(
  pid: number,
  stat: string,
  bootTimeMs: number,
): Omit<RunningProcess, 'path'> | null {
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const comm = stat.slice(open + 1, close);
  // Fields after ')': state(3) ppid(4) ... starttime(22); index 0 here is field 3.
  const fields = stat.slice(close + 2).split(' ');
  const ppid = Number(fields[1]);
  const pgrp = Number(fields[2]);
  const session = Number(fields[3]);
  const startTicks = Number(fields[19]);
  if (!Number.isInteger(ppid) || !Number.isFinite(startTicks)) return null;
  // Whole seconds, like ps-list's `lstart`, so an instance keeps its key whichever lister saw it.
  const startMs = Math.floor((bootTimeMs + (startTicks / CLOCK_TICKS_PER_S) * 1000) / 1000) * 1000;
  // A zombie (exited, not yet reaped) runs nothing: it is not a running program (never an attempt).
  if (fields[0] === 'Z' || fields[0] === 'X') return null;
  return {
    pid,
    ppid,
    name: comm,
    startTime: new Date(startMs),
    ...(Number.isInteger(pgrp) && Number.isInteger(session) ? { pgrp, session } : {}),
  };
}

/**
 * A lister reading `root` (default `/proc`). Synchronous reads on purpose: each is a few
 * microseconds of kernel work on a virtual file, and hundreds of them through the thread pool would
 * cost more than they block. A process that ends while being read is skipped.
 */
export function procLister(root = '/proc'): ProcessLister {
  // Read once per lister (it does not change), and per root: a lister of another root has its own.
  let boot: number | null = null;
  let previous = new Set<number>();
  return () => {
    boot ??= bootTimeMs(root);
    const result: RunningProcess[] = [];
    const pids = readdirSync(root)
      .map(Number)
      .filter((pid) => Number.isInteger(pid) && pid > 0);
    // Pids new since the last listing first, newest first: a process that lives a few ms (a fork
    // chain's link) is read before it exits rather than after the whole table (family.ts).
    const known = previous;
    previous = new Set(pids);
    pids.sort((a, b) => Number(known.has(a)) - Number(known.has(b)) || b - a);
    // And before them the newest processes, read directly (proc-table.ts `recentPids`).
    const recent = recentPids(root);
    const first = new Set(recent);
    const queue = [...recent, ...pids.filter((pid) => !first.has(pid))];
    let followUps = 0;
    /**
     * A new pid that already exited (gone, or a zombie): what it forked may have started after the
     * probe above, so probe again at once and read that next (a fork chain's next link), at most
     * `FOLLOW_UPS` times a listing.
     */
    const followUp = (index: number) => {
      if (known.has(queue[index]!) || followUps >= FOLLOW_UPS) return;
      followUps += 1;
      const queued = new Set(queue);
      const next = recentPids(root).filter((pid) => !queued.has(pid));
      queue.splice(index + 1, 0, ...next);
    };
    for (let index = 0; index < queue.length; index++) {
      const pid = queue[index]!;
      let stat: string;
      try {
        stat = readFileSync(`${root}/${pid}/stat`, 'utf8');
      } catch {
        followUp(index);
        continue; // gone
      }
      const proc = parseStat(pid, stat, boot);
      if (!proc) {
        followUp(index);
        continue;
      }
      let exe = '';
      try {
        exe = readlinkSync(`${root}/${pid}/exe`).replace(/ \(deleted\)$/, '');
      } catch {
        // Kernel threads have none; other users' processes need root.
      }
      result.push(exe ? { ...proc, name: path.basename(exe), path: exe } : proc);
    }
    return Promise.resolve(result.sort((a, b) => a.pid - b.pid));
  };
}
