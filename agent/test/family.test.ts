import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  familyGuard,
  familyOfGone,
  growFamily,
  selectFamily,
  wholeGroups,
  type Family,
} from '../src/family.js';
import { parseProcStat, recentPids, type ProcEntry, type ProcTable } from '../src/proc-table.js';

const PROG = '/home/equipo/chatgpt-red4';

/** A fixture process: `pid ppid pgrp session [exe] [state]`. */
function p(
  pid: number,
  ppid: number,
  pgrp: number,
  session: number,
  exe: string | null,
  state = 'S',
): ProcEntry {
  return { pid, ppid, pgrp, session, exe, state, start: 1000 + pid };
}

function table(...entries: ProcEntry[]): ProcTable {
  return new Map(entries.map((e) => [e.pid, e]));
}

const pids = (family: Family | null) => [...(family?.members.keys() ?? [])].sort((a, b) => a - b);

/**
 * A lab machine: pid 1, kthreadd, the agent (root, its own session) and a desktop session 100 with
 * its terminal shell 100, an honest editor and the user's manager (a subreaper, session 600).
 */
const base = [
  p(1, 0, 1, 1, '/usr/lib/systemd/systemd'),
  p(2, 0, 0, 0, null),
  p(3, 2, 0, 0, null),
  p(40, 1, 40, 40, '/usr/bin/node'),
  p(50, 40, 40, 40, '/usr/bin/node'),
  p(100, 1, 100, 100, '/usr/bin/bash'),
  p(300, 100, 300, 100, '/usr/bin/gedit'),
  p(600, 1, 600, 600, '/usr/lib/systemd/systemd'),
];
const AGENT = 50;

describe('family selection (fixtures)', () => {
  it("a terminal job: the program, its same-program child and that child's helper; its own group is signalled whole; the honest editor is not taken", () => {
    const t = table(
      ...base,
      p(200, 100, 200, 100, PROG),
      p(201, 200, 200, 100, PROG),
      p(202, 201, 200, 100, '/usr/bin/cat'),
    );
    const guard = familyGuard(t, AGENT);
    // Found from the child: the root is its parent running the same file (one start, one attempt).
    const family = selectFamily(t, t.get(201)!, guard);
    expect(pids(family)).toEqual([200, 201, 202]);
    expect(wholeGroups(family!, t, guard)).toEqual([200]);
  });

  it('a fork chain whose parents exited (reparented to pid 1 or a subreaper of another session) is one family; a group shared with a non-family process is never signalled whole', () => {
    const t = table(
      ...base,
      p(150, 100, 150, 100, '/usr/bin/make'),
      p(400, 1, 150, 100, PROG),
      p(401, 400, 150, 100, PROG),
      p(402, 600, 150, 100, PROG),
      // An honest sibling of the same group and session, another program: never taken.
      p(403, 150, 150, 100, '/usr/bin/sleep'),
    );
    const guard = familyGuard(t, AGENT);
    const family = selectFamily(t, t.get(401)!, guard);
    expect(pids(family)).toEqual([400, 401, 402]);
    expect(wholeGroups(family!, t, guard)).toEqual([]);
    // The scan saw a link already gone: the rest of the chain is found by its file, group and session.
    const gone = familyOfGone({ exe: PROG, pgrp: 150, session: 100 }, t, guard);
    expect(pids(gone)).toEqual([400, 401, 402]);
    expect(pids(familyOfGone({ exe: PROG, pgrp: 999, session: 999 }, t, guard))).toEqual([]);
  });

  it("a restart loop: a copy started by the live shell loop is a new start, not the ended one's family", () => {
    const t = table(...base, p(500, 100, 500, 100, '/usr/bin/sh'), p(501, 500, 500, 100, PROG));
    const guard = familyGuard(t, AGENT);
    const family = selectFamily(t, t.get(501)!, guard)!;
    expect(pids(family)).toEqual([501]);
    // The loop's next copy appears while the first is being ended.
    const next = p(502, 500, 500, 100, PROG);
    const t2 = table(...t.values(), next);
    expect(growFamily(family, t2, guard, [next])).toEqual([]);
    // A fork of the ended one, orphaned at once, does join it.
    const fork = p(503, 1, 500, 100, PROG);
    expect(growFamily(family, table(...t2.values(), fork), guard, [fork])).toEqual([fork]);
    // The shell's group holds the shell: never signalled whole.
    expect(wholeGroups(family, t2, guard)).toEqual([]);
  });

  it("never the agent, its ancestors, pid 1, kernel threads or zombies; never the agent's group", () => {
    const t = table(
      ...base,
      // The agent was started from a terminal of a program named like a blocked one: its ancestor.
      p(700, 1, 700, 700, PROG),
      p(701, 700, 40, 700, '/usr/bin/sudo'),
      p(702, 2, 0, 0, null),
      p(703, 1, 703, 100, PROG, 'Z'),
    );
    const shifted = table(...[...t.values()].map((e) => (e.pid === 40 ? { ...e, ppid: 701 } : e)));
    const guard = familyGuard(shifted, AGENT);
    expect(guard.pids.has(700)).toBe(true);
    expect(guard.pids.has(1)).toBe(true);
    expect(guard.groups.has(40)).toBe(true);
    expect(selectFamily(shifted, shifted.get(700)!, guard)).toBeNull();
    expect(selectFamily(shifted, shifted.get(1)!, guard)).toBeNull();
    expect(selectFamily(shifted, shifted.get(702)!, guard)).toBeNull();
    expect(selectFamily(shifted, shifted.get(703)!, guard)).toBeNull();
    // A program whose child joined the agent's group: the child is family, the group is not signalled whole.
    const t3 = table(...base, p(800, 100, 800, 100, PROG), p(801, 800, 40, 100, PROG));
    const g3 = familyGuard(t3, AGENT);
    const family = selectFamily(t3, t3.get(800)!, g3)!;
    expect(pids(family)).toEqual([800, 801]);
    expect(wholeGroups(family, t3, g3)).toEqual([800]);
  });

  it("a zombie in a family's group does not keep the group from being signalled whole, and is never a member", () => {
    const t = table(...base, p(900, 100, 900, 100, PROG), p(901, 900, 900, 100, PROG, 'Z'));
    const guard = familyGuard(t, AGENT);
    const family = selectFamily(t, t.get(900)!, guard)!;
    expect(pids(family)).toEqual([900]);
    expect(wholeGroups(family, t, guard)).toEqual([900]);
  });

  it('a script judged by what python runs takes only that process and its children, never its python parent or other python processes', () => {
    const PY = '/usr/bin/python3.11';
    const t = table(
      ...base,
      p(1000, 100, 1000, 100, PY),
      p(1001, 1000, 1000, 100, PY),
      p(1002, 1001, 1000, 100, '/usr/bin/curl'),
      p(1003, 1, 1000, 100, PY),
    );
    const guard = familyGuard(t, AGENT);
    expect(pids(selectFamily(t, t.get(1001)!, guard, false))).toEqual([1001, 1002]);
    // By executable (a blocked program's own file), the orphan of the same file would be taken.
    expect(pids(selectFamily(t, t.get(1001)!, guard, true))).toEqual([1000, 1001, 1002, 1003]);
  });

  it('reads pgrp, session, state and start from a /proc stat line', () => {
    const line = '4242 (mi (raro) prog) Z 17 4200 4100 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 12345 0 0';
    expect(parseProcStat(4242, line)).toEqual({
      pid: 4242,
      ppid: 17,
      pgrp: 4200,
      session: 4100,
      state: 'Z',
      start: 12345,
    });
    expect(parseProcStat(1, 'basura')).toBeNull();
  });
});

describe('the newest processes, read without listing /proc (recentPids)', () => {
  it('answers the pids around the last one handed out, newest first, without thread ids, across a wrap of pid_max', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'agent-proc-'));
    try {
      // Pids wrapped: 32700 is alive but old; the last pid handed out is 12.
      await writeFile(path.join(root, 'loadavg'), '0.10 0.20 0.30 1/300 12\n');
      const status = async (pid: number, tgid: number) => {
        await mkdir(path.join(root, String(pid)));
        await writeFile(path.join(root, String(pid), 'status'), `Name:\tx\nTgid:\t${tgid}\nPid:\t${pid}\n`);
      };
      await status(32700, 32700);
      await status(9, 9);
      await status(11, 9); // a thread of 9: not a process
      await status(12, 12);
      await status(13, 13); // started after loadavg was read
      expect(recentPids(root)).toEqual([13, 12, 9]);
      expect(recentPids(path.join(root, 'nada'))).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
