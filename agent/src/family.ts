/**
 * Which processes make up a blocked program's family, and which process groups the killer may
 * signal whole (agent/src/README.md, «Una familia entera»). Pure: it works on a `ProcTable`
 * snapshot, so the rules are unit-tested with fixtures.
 *
 * The family of a blocked process:
 * - its root: the process itself, or its topmost ancestor running the same executable (a program's
 *   own helper processes are one start, not several);
 * - every descendant of a member, whatever it runs (children by `ppid`);
 * - a process running the same executable in the root's process group or session whose parent is
 *   gone, is pid 1, is a member, or lives in another session (a subreaper adopted it): a fork whose
 *   parent exited, so its `ppid` link broke. One started by a live process of the same session that
 *   is not a member (a shell loop starting the program again) is a new start, not the family.
 * Never a protected pid: the agent, its ancestors, pid 1 and the kernel's threads (pid 2 and its
 * children), nor a zombie (it runs nothing).
 */
import { isDeadState, type ProcEntry, type ProcTable } from './proc-table.js';

/** What identifies the family when its first process is already gone: its executable, group, session. */
export interface FamilyAnchor {
  exe: string | null;
  pgrp: number;
  session: number;
}

/** A family being ended: its anchor and its members (pid → start ticks, one instance each). */
export interface Family extends FamilyAnchor {
  members: Map<number, number>;
}

/** The pids the family logic never selects, and the groups it never signals whole. */
export interface FamilyGuard {
  pids: ReadonlySet<number>;
  groups: ReadonlySet<number>;
}

/**
 * The guard for `selfPid` (the agent): itself and every ancestor by `ppid`, pid 1, pid 2 (kthreadd);
 * their process groups and sessions (a group that holds the agent's terminal or its service
 * manager is never signalled whole).
 */
export function familyGuard(
  table: ProcTable,
  selfPid: number,
  extraPids: Iterable<number> = [],
): FamilyGuard {
  const pids = new Set<number>([0, 1, 2, selfPid, ...extraPids]);
  let current = table.get(selfPid)?.ppid;
  while (current !== undefined && current > 0 && !pids.has(current)) {
    pids.add(current);
    current = table.get(current)?.ppid;
  }
  // The walk stopped at a pid already held (1, or a loop): add what lies above the extra pids too.
  const groups = new Set<number>([0, 1]);
  for (const pid of pids) {
    const entry = table.get(pid);
    if (!entry) continue;
    groups.add(entry.pgrp);
    groups.add(entry.session);
  }
  return { pids, groups };
}

/** Whether an entry may ever be selected: not protected, not a kernel thread, not a zombie. */
function selectable(entry: ProcEntry, guard: FamilyGuard): boolean {
  return !guard.pids.has(entry.pid) && entry.ppid !== 2 && entry.pid > 2 && !isDeadState(entry.state);
}

/**
 * The family root of `entry`: its topmost ancestor (through live, unprotected processes) running
 * the same executable, or `entry` itself.
 */
function familyRoot(table: ProcTable, entry: ProcEntry, guard: FamilyGuard): ProcEntry {
  let root = entry;
  const seen = new Set<number>([entry.pid]);
  for (;;) {
    const parent = table.get(root.ppid);
    if (!parent || seen.has(parent.pid) || !selectable(parent, guard)) return root;
    if (parent.exe === null || parent.exe !== entry.exe) return root;
    seen.add(parent.pid);
    root = parent;
  }
}

/**
 * Whether `entry` belongs to `family` (the rules in the module comment). A member already held
 * answers true.
 */
function joinsFamily(entry: ProcEntry, family: Family, table: ProcTable, guard: FamilyGuard): boolean {
  if (!selectable(entry, guard)) return false;
  if (family.members.get(entry.pid) === entry.start) return true;
  if (family.members.has(entry.ppid)) return true;
  if (family.exe === null || entry.exe !== family.exe) return false;
  if (entry.pgrp !== family.pgrp && entry.session !== family.session) return false;
  const parent = table.get(entry.ppid);
  if (!parent || isDeadState(parent.state) || parent.pid === 1) return true;
  // Adopted by a subreaper of another session (a desktop's user manager): the fork's parent exited.
  return parent.session !== entry.session;
}

/**
 * Adds to `family` every process of `candidates` (default the whole table) that joins it, until
 * none more does (a child listed before its parent joins on the next pass). Answers the new members.
 */
export function growFamily(
  family: Family,
  table: ProcTable,
  guard: FamilyGuard,
  candidates: Iterable<ProcEntry> = table.values(),
): ProcEntry[] {
  const pending = [...candidates].filter((e) => family.members.get(e.pid) !== e.start);
  const added: ProcEntry[] = [];
  for (let changed = true; changed;) {
    changed = false;
    for (let i = 0; i < pending.length; i++) {
      const entry = pending[i]!;
      if (!joinsFamily(entry, family, table, guard)) continue;
      family.members.set(entry.pid, entry.start);
      added.push(entry);
      pending.splice(i--, 1);
      changed = true;
    }
  }
  return added;
}

/**
 * The family of `entry` (null when it may not be selected: protected, a kernel thread, a zombie):
 * its root, and everything that joins it in `table`. With `byExecutable` false (a process judged
 * by the script or program an interpreter or a loader runs: its executable is python or ld.so,
 * shared with honest programs) neither its ancestors nor other processes of its executable are
 * taken: only itself and its descendants.
 */
export function selectFamily(
  table: ProcTable,
  entry: ProcEntry,
  guard: FamilyGuard,
  byExecutable = true,
): Family | null {
  if (!selectable(entry, guard)) return null;
  const root = byExecutable ? familyRoot(table, entry, guard) : entry;
  const family: Family = {
    exe: byExecutable ? root.exe : null,
    pgrp: root.pgrp,
    session: root.session,
    members: new Map([
      [root.pid, root.start],
      [entry.pid, entry.start],
    ]),
  };
  growFamily(family, table, guard);
  return family;
}

/**
 * The family of a process already gone, from what the scan saw of it: the live processes of its
 * executable in its group or session whose parent is gone or adopted (a fork chain's next link),
 * and their descendants. Empty when there is none, or without an executable to go by.
 */
export function familyOfGone(anchor: FamilyAnchor, table: ProcTable, guard: FamilyGuard): Family {
  const family: Family = { ...anchor, members: new Map() };
  if (anchor.exe !== null) growFamily(family, table, guard);
  return family;
}

/**
 * The process groups of `family` that may be signalled whole (`kill(-pgrp)`, one system call that
 * reaches a fork in progress too): groups of members, not protected, in which every live process
 * of `table` is a member. A group shared with anything else (the shell that started the program,
 * the desktop) is never signalled whole: its members are signalled one by one.
 */
export function wholeGroups(family: Family, table: ProcTable, guard: FamilyGuard): number[] {
  const groups = new Set<number>();
  for (const pid of family.members.keys()) {
    const entry = table.get(pid);
    if (entry && !guard.groups.has(entry.pgrp) && entry.pgrp > 1) groups.add(entry.pgrp);
  }
  for (const entry of table.values()) {
    if (!groups.has(entry.pgrp) || isDeadState(entry.state)) continue;
    if (family.members.get(entry.pid) !== entry.start || guard.pids.has(entry.pid)) groups.delete(entry.pgrp);
  }
  return [...groups].sort((a, b) => a - b);
}
