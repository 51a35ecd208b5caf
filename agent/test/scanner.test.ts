import { afterEach, describe, expect, it } from 'vitest';
import { parseStat, procLister } from '../src/proc-lister.js';
import { listProcesses, protectedPids, psListLister, type RunningProcess } from '../src/scanner.js';
import { blockedBinary, cleanUp, spawnProcess, uniqueName } from './helpers/processes.js';

afterEach(cleanUp);

const proc = (pid: number, ppid: number): RunningProcess => ({ pid, ppid, name: `p${pid}` });

describe('protectedPids', () => {
  it('protects the agent and its whole chain of ancestors', () => {
    const list = [proc(1, 0), proc(50, 1), proc(60, 50), proc(70, 60), proc(80, 60)];
    expect([...protectedPids(list, 70)].sort((a, b) => a - b)).toEqual([1, 50, 60, 70]);
  });

  it('stops on a cycle or a missing parent', () => {
    expect([...protectedPids([proc(5, 6), proc(6, 5)], 5)].sort()).toEqual([5, 6]);
    expect([...protectedPids([proc(5, 99)], 5)].sort()).toEqual([5, 99]);
  });
});

describe('listProcesses (real ps)', () => {
  it('never lists the agent itself nor its parent', async () => {
    const list = await listProcesses();
    const pids = list.map((p) => p.pid);
    expect(list.length).toBeGreaterThan(0);
    expect(pids).not.toContain(process.pid);
    expect(pids).not.toContain(process.ppid);
  });

  it("lists a child with its executable's path and start time", async () => {
    const file = await blockedBinary(uniqueName('discord'));
    const child = await spawnProcess(file, ['100']);
    const found = (await listProcesses()).find((p) => p.pid === child.pid);
    expect(found).toBeDefined();
    expect(found!.path).toBe(file);
    expect(found!.ppid).toBe(process.pid);
    expect(found!.startTime).toBeInstanceOf(Date);
    expect(found).not.toHaveProperty('cmd');
  });
});

describe('procLister (Linux /proc, no ps)', () => {
  it('parses a stat line whose comm holds spaces and parentheses', () => {
    const line = '4242 (mi (raro) prog) S 17 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 12345 0 0';
    expect(parseStat(4242, line, 1_700_000_000_000)).toEqual({
      pid: 4242,
      ppid: 17,
      name: 'mi (raro) prog',
      startTime: new Date(1_700_000_000_000 + 123_000),
      pgrp: 4242,
      session: 4242,
    });
    expect(parseStat(1, 'basura', 0)).toBeNull();
    // A zombie runs nothing: not a running program, never an attempt.
    expect(parseStat(4243, line.replace('4242 (', '4243 (').replace(') S ', ') Z '), 0)).toBeNull();
  });

  it.runIf(process.platform === 'linux')(
    'lists a child exactly as ps-list does: pid, ppid, name, path and start time (same instance key)',
    async () => {
      const file = await blockedBinary(uniqueName('discord'));
      const child = await spawnProcess(file, ['100']);
      const [fromProc, fromPs] = await Promise.all([procLister()(), psListLister()]);
      const mine = fromProc.find((p) => p.pid === child.pid);
      const theirs = fromPs.find((p) => p.pid === child.pid);
      expect(mine).toEqual({
        pid: child.pid,
        ppid: process.pid,
        name: file.split('/').pop(),
        path: file,
        startTime: theirs!.startTime,
        pgrp: expect.any(Number) as number,
        session: expect.any(Number) as number,
      });
      expect(mine).not.toHaveProperty('cmd');
      // The whole machine, not only ours: both see this test's own process.
      expect(fromProc.some((p) => p.pid === process.pid)).toBe(true);
    },
  );
});
