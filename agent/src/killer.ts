/**
 * Ends blocked processes: politely (SIGTERM) first, then SIGKILL after a grace period. Remembers
 * each process instance (pid + start time) so one instance is reported once, however many polls see it.
 */
import { readFileSync } from 'node:fs';
import { executableName, normaliseExecutableName } from './matcher.js';
import type { RunningProcess } from './scanner.js';

/** Default time a process gets to exit after SIGTERM before SIGKILL (ms). */
export const DEFAULT_GRACE_MS = 500;

/** How long to wait for the process to vanish after SIGKILL (ms). */
const KILL_WAIT_MS = 1_000;

/** How often to look whether the process is gone while waiting (ms). */
const CHECK_EVERY_MS = 20;

/** Sends a signal; `process.kill` by default. Throws like it (`ESRCH`, `EPERM`). */
export type SignalSender = (pid: number, signal: NodeJS.Signals) => void;

/** Tells whether a pid is still running. */
export type AliveCheck = (pid: number) => boolean;

/** Outcome of ending one process. */
export interface EndResult {
  /** True when the process is gone (it exited, was killed, or had already vanished). */
  died: boolean;
  /** The last signal sent, or null when none could be sent. */
  signal: 'SIGTERM' | 'SIGKILL' | null;
  /** System error code when a signal could not be sent (e.g. `EPERM`: no permission). */
  error?: string;
}

export interface EndOptions {
  /** Time between SIGTERM and SIGKILL (ms). Default `DEFAULT_GRACE_MS`. */
  graceMs?: number;
  send?: SignalSender;
  isAlive?: AliveCheck;
}

/**
 * Whether a pid is alive. A zombie (exited, not yet reaped by its parent) counts as dead: it runs
 * nothing and no signal can end it.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

const defaultSend: SignalSender = (pid, signal) => {
  process.kill(pid, signal);
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function waitForExit(pid: number, withinMs: number, alive: AliveCheck): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (!alive(pid)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(CHECK_EVERY_MS);
  }
}

/** Sends a signal; answers the error code when it could not, or null. `ESRCH` means already gone. */
function trySignal(send: SignalSender, pid: number, signal: NodeJS.Signals): string | null {
  try {
    send(pid, signal);
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'ERROR';
  }
}

/**
 * Ends a process: SIGTERM, wait up to `graceMs` for it to exit, then SIGKILL and wait up to 1 s.
 * On Windows Node maps both signals to TerminateProcess, so the first one already ends it.
 */
export async function endProcess(pid: number, options: EndOptions = {}): Promise<EndResult> {
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const send = options.send ?? defaultSend;
  const alive = options.isAlive ?? isAlive;

  const termError = trySignal(send, pid, 'SIGTERM');
  if (termError === 'ESRCH') return { died: true, signal: null };
  if (termError === null && (await waitForExit(pid, graceMs, alive)))
    return { died: true, signal: 'SIGTERM' };

  const killError = trySignal(send, pid, 'SIGKILL');
  if (killError === 'ESRCH') return { died: true, signal: termError === null ? 'SIGTERM' : null };
  if (killError !== null) {
    return { died: !alive(pid), signal: termError === null ? 'SIGTERM' : null, error: killError };
  }
  return { died: await waitForExit(pid, KILL_WAIT_MS, alive), signal: 'SIGKILL' };
}

/**
 * Names one process instance: pid plus start time, so a pid reused later by another program is a
 * new instance. Without a start time (Windows) the executable name stands in for it.
 */
export function instanceKey(proc: RunningProcess): string {
  const since = proc.startTime
    ? String(proc.startTime.getTime())
    : normaliseExecutableName(executableName(proc));
  return `${proc.pid}@${since}`;
}

/** What happened to one blocked process instance. */
export interface KillReport {
  /** `instanceKey` of the process. */
  key: string;
  pid: number;
  /** Executable file name as found on the machine (e.g. `discord`). */
  executable: string;
  /** Blocked name it matched, as configured (e.g. `Discord.exe`): what the attempt reports. */
  blocked: string;
  /** `killed`: it is gone; `failed`: it could not be ended; `detected`: dry run, reported but not ended. */
  outcome: 'killed' | 'failed' | 'detected';
  signal: EndResult['signal'];
  error?: string;
  /** True the first time this instance is reported: exactly one attempt is queued for it. */
  first: boolean;
}

export interface KillerOptions extends EndOptions {
  /** Detect and report only; never send a signal. */
  dryRun?: boolean;
}

type InstanceState = 'ending' | 'gone' | 'failed' | 'detected';

/** Ends blocked processes and remembers which instances it already handled. */
export class Killer {
  private readonly instances = new Map<string, InstanceState>();

  constructor(private readonly options: KillerOptions = {}) {}

  /**
   * Ends one blocked process. Answers null when this instance was already handled (or is being
   * handled by a concurrent call), so callers count it once. An instance that could not be ended is
   * tried again on later calls; a later success is reported with `first: false`.
   */
  async handle(proc: RunningProcess, blocked: string): Promise<KillReport | null> {
    const key = instanceKey(proc);
    const previous = this.instances.get(key);
    if (previous !== undefined && previous !== 'failed') return null;
    const base = {
      key,
      pid: proc.pid,
      executable: executableName(proc),
      blocked,
      first: previous === undefined,
    };

    if (this.options.dryRun) {
      this.instances.set(key, 'detected');
      return { ...base, outcome: 'detected', signal: null };
    }

    this.instances.set(key, 'ending');
    const result = await endProcess(proc.pid, this.options);
    this.instances.set(key, result.died ? 'gone' : 'failed');
    // A retry that failed again has nothing new to say.
    if (!result.died && !base.first) return null;
    return {
      ...base,
      outcome: result.died ? 'killed' : 'failed',
      signal: result.signal,
      ...(result.error ? { error: result.error } : {}),
    };
  }

  /**
   * Forgets instances absent from the latest process list (they are gone for good), keeping the
   * memory bounded; instances being ended right now are kept.
   */
  retain(current: readonly RunningProcess[]): void {
    const live = new Set(current.map(instanceKey));
    for (const [key, state] of this.instances) {
      if (state !== 'ending' && !live.has(key)) this.instances.delete(key);
    }
  }

  /** How many instances are remembered (for stats and tests). */
  get remembered(): number {
    return this.instances.size;
  }
}
