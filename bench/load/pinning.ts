/**
 * CPU pinning of the load test (server+MariaDB and the tester pinned to different CPUs (`taskset`) when the
 * machine allows, so the tester never steals the server's core). With `os.availableParallelism() >= 2` and
 * `taskset` on the PATH, the server processes (and the bare-ws / mysql2 baseline servers standing in for
 * them) get the first half of the CPUs and the load tester (main process, tester processes) the second half:
 * on the 2-core machine, servers on CPU 0 and the tester on CPU 1. The shared MariaDB and Redis are left
 * alone (not ours to touch). Linux only; every failure leaves the process unpinned and says why.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** CPU lists for `taskset -c`, or why there is no pinning. */
export type PinPlan = { pinned: true; servers: string; tester: string } | { pinned: false; reason: string };

/** `a-b` (or `a` for one CPU). */
const range = (from: number, to: number) => (from === to ? String(from) : `${from}-${to}`);

/** The plan for this machine; `wanted` false (`--pin off`) gives no pinning. */
export function pinPlan(wanted: boolean): PinPlan {
  if (!wanted) return { pinned: false, reason: '--pin off' };
  const cpus = os.availableParallelism();
  if (cpus < 2) return { pinned: false, reason: `${cpus} CPU available` };
  const probe = spawnSync('taskset', ['-p', String(process.pid)], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return { pinned: false, reason: 'taskset not available' };
  const half = Math.floor(cpus / 2);
  return { pinned: true, servers: range(0, half - 1), tester: range(half, cpus - 1) };
}

/**
 * Pins every thread of process `pid` (`taskset -a -p -c`) to `cpus`; threads it starts later inherit
 * it. Throws with taskset's message when it fails.
 */
export function pinProcess(pid: number, cpus: string): void {
  const run = spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { encoding: 'utf8' });
  if (run.error || run.status !== 0) {
    throw new Error(`taskset -a -p -c ${cpus} ${pid}: ${run.error?.message ?? run.stderr.trim()}`);
  }
}

/** The CPUs process `pid` may run on (`Cpus_allowed_list` of /proc/<pid>/status), or null. */
export function allowedCpus(pid: number): string | null {
  try {
    return /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}
