/**
 * Ends a blocked program's whole family on Linux (agent/src/README.md, «Una familia entera»):
 * SIGTERM to every member, a grace watched every `WATCH_MS`, and then, if anything is left or the
 * family forked during its grace, a freeze (SIGSTOP to each member and to the groups that are only
 * the family's, the table read again until a round finds no new member, at most `FREEZE_ROUNDS`)
 * and SIGKILL to all. A stopped process cannot fork, so a program that forks on SIGTERM or a chain
 * forking every millisecond (the parent exiting) is caught whole. SIGCONT is never needed: SIGKILL
 * ends a stopped process.
 */
import { growFamily, wholeGroups, type Family, type FamilyGuard } from './family.js';
import { isDeadState, type LiveProcTable, type ProcEntry } from './proc-table.js';

/** How often the grace looks at the family again (ms): a fork during the grace is seen this soon. */
const WATCH_MS = 20;

/** Most rounds of the freeze (each a listing of /proc plus reads of its new pids: well under 1 ms). */
const FREEZE_ROUNDS = 200;

/**
 * Rounds in a row that must find nothing new before the freeze is done: a fork in progress when a
 * round lists /proc shows up in the next one.
 */
const QUIET_ROUNDS = 3;

/**
 * How long nothing of a family must show up before it counts as gone (ms), looked at every
 * `QUIET_EVERY_MS`: several fork periods of a chain forking every millisecond on a busy machine.
 */
const QUIET_MS = 60;
const QUIET_EVERY_MS = 2;

/** How long to wait for the family to vanish after SIGKILL (ms). */
const KILL_WAIT_MS = 1_000;

/** Longest wait for a stopped family to show stopped before its «antes» screen is read (ms). */
const STOP_SETTLE_MS = 100;

/** Sends a signal to a pid, or to a whole group with a negative pid; throws like `process.kill`. */
type GroupSignalSender = (pid: number, signal: NodeJS.Signals) => void;

/** What ending a family came to. */
export interface FamilyEndResult {
  /** Every member is gone (exited, killed, or a zombie waiting for its parent). */
  died: boolean;
  /** The last signal sent to a member, or null when none could be sent. */
  signal: 'SIGTERM' | 'SIGKILL' | null;
  /** System error code of a signal that could not be sent (not `ESRCH`). */
  error?: string;
  /** Every member ended with it (pid → start ticks), the first process included. */
  members: Map<number, number>;
  /** Whether it forked during its grace (it got no more grace and was frozen). */
  forked: boolean;
  /** Groups signalled whole. */
  groups: number[];
}

export interface FamilyEndOptions {
  table: LiveProcTable;
  guard: FamilyGuard;
  graceMs: number;
  send: GroupSignalSender;
  /**
   * Runs with the whole family stopped (SIGSTOP), before anything asks it to end: the «antes» screen
   * capture (capture.ts; the caller bounds how long it waits). The family then gets SIGTERM and
   * SIGCONT (the signal pending before it runs again) and its grace as usual.
   */
  whileStopped?: () => Promise<unknown>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Ends `family` (its members already selected from `options.table`). Never throws; a signal that
 * cannot be sent (`EPERM`) is reported in `error`, and `died` says whether the family is gone.
 */
export async function endFamily(family: Family, options: FamilyEndOptions): Promise<FamilyEndResult> {
  const { table, guard, graceMs, send } = options;
  let signal: FamilyEndResult['signal'] = null;
  let error: string | undefined;
  const groups = new Set<number>();
  /** Members not yet seen gone (a chain leaves hundreds of dead links: they are not read again). */
  const watched = new Set(family.members.keys());

  const trySend = (pid: number, sig: NodeJS.Signals): boolean => {
    try {
      send(pid, sig);
      if (sig !== 'SIGSTOP' && sig !== 'SIGCONT')
        signal = sig === 'SIGKILL' ? 'SIGKILL' : (signal ?? 'SIGTERM');
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'ERROR';
      if (code !== 'ESRCH') error ??= code;
      return false;
    }
  };
  /** The members still running (read again: stopped still runs; a zombie does not). */
  const live = (): ProcEntry[] => {
    const result: ProcEntry[] = [];
    for (const pid of watched) {
      const entry = table.reread(pid);
      if (entry && entry.start === family.members.get(pid) && !isDeadState(entry.state)) result.push(entry);
      else watched.delete(pid);
    }
    return result;
  };
  /** New members since the last look, each sent `sig` at once (before anything else is read). */
  const absorb = (sig: NodeJS.Signals | null): ProcEntry[] => {
    const added = growFamily(family, table.table, guard, table.refresh());
    for (const entry of added) {
      watched.add(entry.pid);
      if (sig) trySend(entry.pid, sig);
    }
    return added;
  };
  const signalAll = (sig: NodeJS.Signals, members: ProcEntry[]): void => {
    for (const pgrp of wholeGroups(family, table.table, guard)) {
      if (trySend(-pgrp, sig)) groups.add(pgrp);
    }
    for (const entry of members) trySend(entry.pid, sig);
  };
  /**
   * Stops every member and what it forks: rounds of listing (each well under a millisecond) until
   * `QUIET_ROUNDS` rounds in a row find nothing new, at most `FREEZE_ROUNDS`.
   */
  const freeze = (): void => {
    signalAll('SIGSTOP', live());
    for (let round = 0, quiet = 0; round < FREEZE_ROUNDS && quiet < QUIET_ROUNDS; round++) {
      quiet = absorb('SIGSTOP').length > 0 ? 0 : quiet + 1;
    }
  };

  /**
   * Waits, at most `STOP_SETTLE_MS`, until every member still running shows stopped (`T`): a SIGSTOP
   * takes effect when the process next runs, so on a busy machine it may still show running for a
   * moment, and the «antes» screen must be of the frozen program.
   */
  const settleStopped = async (): Promise<void> => {
    const until = Date.now() + STOP_SETTLE_MS;
    while (live().some((entry) => entry.state !== 'T' && entry.state !== 't') && Date.now() < until)
      await sleep(2);
  };

  /**
   * Looks again every `QUIET_EVERY_MS` for `QUIET_MS`: true when nothing came back and nothing new
   * appeared all along (new members are sent `sig`). One look can fall between a chain's link that
   * exited and its fork: only a quiet stretch longer than a fork's period says the family is gone.
   */
  const quiet = async (sig: NodeJS.Signals | null): Promise<boolean> => {
    const until = Date.now() + QUIET_MS;
    while (Date.now() < until) {
      await sleep(QUIET_EVERY_MS);
      const left = live().length;
      if (absorb(sig).length > 0 || left > 0) return false;
    }
    return true;
  };

  // Polite first: a browser gets its grace to save and exit. What forked meanwhile is caught first.
  absorb(null);
  if (options.whileStopped) {
    // Held still while the screen is read: no window closes, nothing forks.
    freeze();
    await settleStopped();
    await options.whileStopped();
    const members = live();
    for (const entry of members) trySend(entry.pid, 'SIGTERM');
    signalAll('SIGCONT', members);
  } else for (const entry of live()) trySend(entry.pid, 'SIGTERM');
  let forked = false;
  const graceEnds = Date.now() + graceMs;
  for (;;) {
    await sleep(Math.max(1, Math.min(WATCH_MS, graceEnds - Date.now())));
    // Who is alive first, then what is new: a member that forked and exited in between has its
    // fork seen here. A family that forks while it is asked to end gets no more grace.
    const alive = live().length;
    if (absorb(null).length > 0) {
      forked = true;
      break;
    }
    if (alive === 0) {
      // Gone, unless something of it shows up within the quiet stretch (then it forked).
      forked = !(await quiet(null));
      break;
    }
    if (Date.now() >= graceEnds || error !== undefined) break;
  }

  if (live().length > 0 || forked) {
    // Freeze, kill, look again: until a look finds nothing new and nothing alive, within 1 s.
    const deadline = Date.now() + KILL_WAIT_MS;
    for (;;) {
      freeze();
      signalAll('SIGKILL', live());
      await sleep(WATCH_MS);
      const left = live();
      const added = absorb('SIGKILL');
      if (added.length === 0 && left.length === 0 && (await quiet('SIGKILL'))) break;
      // Nothing could be killed (no permission): trying again would not change that.
      if (Date.now() >= deadline || signal !== 'SIGKILL') break;
    }
  }
  return {
    died: live().length === 0,
    signal,
    ...(error !== undefined ? { error } : {}),
    members: family.members,
    forked,
    groups: [...groups],
  };
}
