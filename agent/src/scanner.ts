/**
 * Lists the machine's processes. Only what matching and killing need is kept: never the command
 * line, so arguments (paths, URLs, tokens) never leave this module.
 */
import { existsSync } from 'node:fs';
import psList from 'ps-list';
import type { ProcessIdentity } from './matcher.js';
import { procLister } from './proc-lister.js';

/** One running process as the agent sees it. */
export interface RunningProcess extends ProcessIdentity {
  pid: number;
  /** Parent pid (0 when unknown). */
  ppid: number;
  /** When the process started (second precision; absent on Windows). With the pid it names one instance. */
  startTime?: Date;
  /**
   * Process group and session ids (Linux, proc-lister.ts): how the killer finds a fork chain's next
   * link when this process is already gone (family.ts).
   */
  pgrp?: number;
  session?: number;
}

/** Lists raw processes; injectable so tests and other platforms can replace ps-list. */
export type ProcessLister = () => Promise<RunningProcess[]>;

/** The default lister: ps-list (Linux/macOS: `ps` plus `/proc/<pid>/exe`; Windows: fastlist). */
export const psListLister: ProcessLister = async () => {
  const all = await psList({ all: true });
  return all.map((p) => ({
    pid: p.pid,
    ppid: p.ppid,
    name: p.name,
    ...(p.path ? { path: p.path } : {}),
    ...(p.startTime ? { startTime: p.startTime } : {}),
  }));
};

/**
 * The lister the agent uses: on Linux `/proc` read directly (proc-lister.ts: no `ps` started on each
 * poll), elsewhere ps-list.
 */
export const defaultLister: ProcessLister =
  process.platform === 'linux' && existsSync('/proc/self/stat') ? procLister() : psListLister;

/**
 * The pids the agent must never touch: its own and every ancestor's (its parent, and above it the
 * npm/tsx/shell chain that started it), found by walking `ppid` links in the list.
 */
export function protectedPids(processes: readonly RunningProcess[], selfPid = process.pid): Set<number> {
  const parentOf = new Map(processes.map((p) => [p.pid, p.ppid]));
  const result = new Set<number>([selfPid]);
  let current = parentOf.get(selfPid);
  while (current !== undefined && current > 0 && !result.has(current)) {
    result.add(current);
    current = parentOf.get(current);
  }
  // The parent even when the list missed it (e.g. it raced the listing).
  if (selfPid === process.pid) result.add(process.ppid);
  return result;
}

/**
 * Lists running processes, leaving out the agent itself and its ancestors (so a blocked name can
 * never make the agent end itself or the terminal that runs it) and pid 0.
 */
export async function listProcesses(lister: ProcessLister = defaultLister): Promise<RunningProcess[]> {
  const processes = await lister();
  const skip = protectedPids(processes);
  return processes.filter((p) => p.pid > 0 && !skip.has(p.pid));
}
