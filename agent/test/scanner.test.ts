import { afterEach, describe, expect, it } from 'vitest';
import { listProcesses, protectedPids, type RunningProcess } from '../src/scanner.js';
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
