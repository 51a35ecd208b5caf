/**
 * Ends blocked processes: politely (SIGTERM) first, then SIGKILL after a grace period. Remembers
 * each process instance (pid + start time) so one instance is reported once, however many polls see it.
 */
import { readFileSync } from 'node:fs';
import { despuesShot, waitForAntes, type KillCapture, type KillShots } from './capture.js';
import type { RawGrab } from './capture-screen.js';
import { endFamily } from './family-end.js';
import { familyGuard, familyOfGone, selectFamily, type Family, type FamilyAnchor } from './family.js';
import { instanceKey } from './instance-key.js';
import { executableName } from './matcher.js';
import { LiveProcTable, isDeadState, procTableAvailable } from './proc-table.js';
import type { RunningProcess } from './scanner.js';

/** Default time a process gets to exit after SIGTERM before SIGKILL (ms). */
export const DEFAULT_GRACE_MS = 500;

/** How long to wait for the process to vanish after SIGKILL (ms). */
const KILL_WAIT_MS = 1_000;

/** How often to look whether the process is gone while waiting (ms). */
const CHECK_EVERY_MS = 20;

/** Sends a signal; `process.kill` by default. Throws like it (`ESRCH`, `EPERM`). */
type SignalSender = (pid: number, signal: NodeJS.Signals) => void;

/** Tells whether a pid is still running. */
type AliveCheck = (pid: number) => boolean;

/** Outcome of ending one process. */
interface EndResult {
  /** True when the process is gone (it exited, was killed, or had already vanished). */
  died: boolean;
  /** The last signal sent, or null when none could be sent. */
  signal: 'SIGTERM' | 'SIGKILL' | null;
  /** System error code when a signal could not be sent (e.g. `EPERM`: no permission). */
  error?: string;
}

interface EndOptions {
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

/**
 * Whether the scan judged `proc` by the program a loader or an interpreter runs (its `program`,
 * set by the scanner where it finds one) rather than by its executable.
 */
function runsAProgram(proc: RunningProcess): boolean {
  const program = (proc as { program?: unknown }).program;
  return typeof program === 'object' && program !== null;
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
async function endProcess(pid: number, options: EndOptions = {}): Promise<EndResult> {
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
  /**
   * How many processes of its family were ended with it, itself included (Linux; 1 elsewhere): one
   * attempt however many (agent/src/README.md, «Una familia entera»).
   */
  family: number;
  /** Whether the family forked while it was being ended (it was frozen and killed without grace). */
  forked?: boolean;
  /** The screen before and after it was ended, while the contest asks for captures (capture.ts). */
  shots?: KillShots;
}

export interface KillerOptions extends EndOptions {
  /** Detect and report only; never send a signal. */
  dryRun?: boolean;
  /**
   * End the whole family (family.ts, family-end.ts): default on Linux when /proc can be read; off,
   * only the process itself is ended (elsewhere, and Windows, where Node's kill is TerminateProcess).
   */
  family?: boolean;
  /** Where /proc is (tests). Default `/proc`. */
  procRoot?: string;
  /** The agent's own pid, never ended nor its ancestors. Default `process.pid`. */
  selfPid?: number;
  /**
   * The screen captures of a kill (capture.ts), taken while `enabled()`: «antes» with the family
   * stopped (waited for at most `ANTES_WAIT_MS`), «despues» `DESPUES_AFTER_MS` after it ended.
   */
  capture?: KillCapture | null;
}

/** How long a family ended stays known (ms): a process of it a scan listed just before it ended is not a new start. */
const ENDED_FAMILY_MEMORY_MS = 2_000;

/** A family being ended or just ended: what identifies it, its members and when it ended. */
interface KnownFamily extends FamilyAnchor {
  members: Map<number, number>;
  endedAt: number | null;
}

type InstanceState = 'ending' | 'gone' | 'failed' | 'detected';

/** Ends blocked processes and remembers which instances it already handled. */
export class Killer {
  private readonly instances = new Map<string, InstanceState>();
  /** Families being ended or ended in the last `ENDED_FAMILY_MEMORY_MS`. */
  private readonly families = new Set<KnownFamily>();
  private readonly familyMode: boolean;

  constructor(private readonly options: KillerOptions = {}) {
    this.familyMode =
      options.family ?? (process.platform === 'linux' && procTableAvailable(options.procRoot));
  }

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
      family: 1,
    };
    if (this.familyMode && previous === undefined) return this.handleFamily(proc, key, base);

    if (this.options.dryRun) {
      this.instances.set(key, 'detected');
      return { ...base, outcome: 'detected', signal: null };
    }

    this.instances.set(key, 'ending');
    // No stopping a process here (Windows): the «antes» capture is taken before it is ended.
    const capture = base.first ? this.capturing() : null;
    const antes = capture?.grab() ?? null;
    if (capture && antes) await waitForAntes(capture, antes);
    const result = await endProcess(proc.pid, this.options);
    this.instances.set(key, result.died ? 'gone' : 'failed');
    // A retry that failed again has nothing new to say.
    if (!result.died && !base.first) return null;
    return {
      ...base,
      outcome: result.died ? 'killed' : 'failed',
      signal: result.signal,
      ...(result.error ? { error: result.error } : {}),
      ...(capture && antes ? { shots: { antes, despues: despuesShot(capture) } } : {}),
    };
  }

  /** The captures to take for a kill starting now, or null when the contest asks for none. */
  private capturing(): KillCapture | null {
    const capture = this.options.capture;
    return capture && !this.options.dryRun && capture.enabled() ? capture : null;
  }

  /**
   * Ends the whole family of a process seen for the first time (Linux). Answers null, with no
   * signal, when it is not a running program (a zombie) or belongs to a family being ended or just
   * ended (one family ended together is one attempt). A retry after a failure goes through
   * `handle`'s single-process path.
   */
  private async handleFamily(
    proc: RunningProcess,
    key: string,
    base: Omit<KillReport, 'outcome' | 'signal'>,
  ): Promise<KillReport | null> {
    const table = new LiveProcTable(this.options.procRoot);
    table.refresh();
    const read = table.table.get(proc.pid);
    // A zombie runs nothing. Listed as one (a lister that lists zombies: no group known), it is
    // never an attempt; listed alive and a zombie by now (proc-lister.ts never lists zombies), it
    // exited since: gone, and its family (a fork chain's next link) is looked for as for any gone one.
    if (read && isDeadState(read.state) && proc.pgrp === undefined) {
      this.instances.set(key, 'gone');
      return null;
    }
    const entry = read && !isDeadState(read.state) ? read : undefined;
    this.forgetOldFamilies();
    if (this.inKnownFamily(proc, entry?.start)) {
      this.instances.set(key, 'gone');
      return null;
    }
    const guard = familyGuard(table.table, this.options.selfPid ?? process.pid);
    // An interpreter's or a loader's process is judged by what it runs: its executable (python,
    // ld.so) says nothing of its family.
    const byExecutable = !runsAProgram(proc);
    const anchor: FamilyAnchor | null =
      proc.pgrp !== undefined && proc.session !== undefined && byExecutable
        ? { exe: proc.path ?? null, pgrp: proc.pgrp, session: proc.session }
        : null;
    let family: Family | null = entry
      ? selectFamily(table.table, entry, guard, byExecutable)
      : anchor
        ? familyOfGone(anchor, table.table, guard)
        : null;
    if (entry && !family) {
      // Protected (never listed as blocked by the scan, but a test may ask): nothing is signalled.
      this.instances.set(key, 'failed');
      return { ...base, outcome: 'failed', signal: null, error: 'EPERM' };
    }
    family ??= { exe: byExecutable ? (proc.path ?? null) : null, pgrp: -1, session: -1, members: new Map() };
    // Members already in another family being ended stay with it.
    for (const known of this.families)
      for (const [pid, start] of known.members)
        if (family.members.get(pid) === start) family.members.delete(pid);
    const known: KnownFamily = { ...family, endedAt: null };
    this.families.add(known);
    this.instances.set(key, 'ending');

    if (this.options.dryRun) {
      known.endedAt = Date.now();
      this.instances.set(key, 'detected');
      return { ...base, outcome: 'detected', signal: null, family: Math.max(1, family.members.size) };
    }
    if (family.members.size === 0 && family.exe === null) {
      // Seen by the scan, gone before it could be signalled, nothing to find it by: a start that ended.
      known.endedAt = Date.now();
      this.instances.set(key, 'gone');
      return { ...base, outcome: 'killed', signal: null };
    }
    // Even with no member left, ending it looks again at once (a fork chain's next link, started
    // since the table was read, is found by its file, group and session).
    const capture = family.members.size > 0 ? this.capturing() : null;
    let antes: Promise<RawGrab | null> | null = null;
    const result = await endFamily(family, {
      table,
      guard,
      graceMs: this.options.graceMs ?? DEFAULT_GRACE_MS,
      send: this.options.send ?? defaultSend,
      ...(capture
        ? {
            whileStopped: () => {
              antes = capture.grab();
              return waitForAntes(capture, antes);
            },
          }
        : {}),
    });
    known.endedAt = Date.now();
    this.instances.set(key, result.died ? 'gone' : 'failed');
    return {
      ...base,
      outcome: result.died ? 'killed' : 'failed',
      signal: result.signal,
      family: Math.max(1, result.members.size),
      ...(result.forked ? { forked: true } : {}),
      ...(result.error && !result.died ? { error: result.error } : {}),
      ...(capture && antes ? { shots: { antes, despues: despuesShot(capture) } } : {}),
    };
  }

  /**
   * Whether a process belongs to a family being ended or ended moments ago: one of its members
   * (same pid and start), or, when it is already gone, a process of its executable in its group or
   * session (a fork chain's link the scan listed just before it ended).
   */
  private inKnownFamily(proc: RunningProcess, start: number | undefined): boolean {
    for (const known of this.families) {
      if (start !== undefined && known.members.get(proc.pid) === start) return true;
      // A gone process is taken for a family's only while that family is being ended: seen gone by
      // a later scan, it is a sign the family lives on (a chain's link that escaped), not a leftover.
      if (
        start === undefined &&
        known.endedAt === null &&
        proc.path !== undefined &&
        proc.path === known.exe &&
        (proc.pgrp === known.pgrp || proc.session === known.session)
      )
        return true;
    }
    return false;
  }

  private forgetOldFamilies(): void {
    const now = Date.now();
    for (const known of this.families)
      if (known.endedAt !== null && now - known.endedAt > ENDED_FAMILY_MEMORY_MS) this.families.delete(known);
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
    this.forgetOldFamilies();
  }

  /** How many instances are remembered (for stats and tests). */
  get remembered(): number {
    return this.instances.size;
  }
}
