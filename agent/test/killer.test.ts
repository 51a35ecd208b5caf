import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { instanceKey } from '../src/instance-key.js';
import { Killer, type KillReport } from '../src/killer.js';
import { createMatcher } from '../src/matcher.js';
import { listProcesses, type RunningProcess } from '../src/scanner.js';
import {
  blockedBinary,
  cleanUp,
  running,
  spawnProcess,
  tempDir,
  uniqueName,
  within,
  type Spawned,
} from './helpers/processes.js';

afterEach(cleanUp);

/**
 * One poll as the agent does it (scan, match, end), acting only on this test's own children so
 * parallel tests never end each other's processes.
 */
async function sweep(killer: Killer, blocked: string[], mine: Spawned[]): Promise<KillReport[]> {
  const matcher = createMatcher(blocked);
  const processes = await listProcesses();
  killer.retain(processes);
  const ours = new Set(mine.map((s) => s.pid));
  const reports = await Promise.all(
    processes.map((p) => {
      const name = matcher(p);
      return name !== null && ours.has(p.pid) ? killer.handle(p, name) : null;
    }),
  );
  return reports.filter((r): r is KillReport => r !== null);
}

describe('Killer with real processes', () => {
  it('ends a running blocked program (a copy of sleep named like Discord) within 2 seconds', async () => {
    const name = uniqueName('discord');
    const child = await spawnProcess(await blockedBinary(name), ['100']);
    const killer = new Killer();

    const started = sweep(killer, [`${name.replace('discord', 'Discord')}.exe`], [child]);
    const ended = await within(2_000, child.exited, 'el proceso bloqueado termina');
    const reports = await started;

    expect(ended.signal).toBe('SIGTERM');
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      pid: child.pid,
      executable: name,
      blocked: `${name.replace('discord', 'Discord')}.exe`,
      outcome: 'killed',
      signal: 'SIGTERM',
      first: true,
    });
  });

  it('SIGKILLs a program that ignores SIGTERM after the grace, and counts it once over several sweeps', async () => {
    const name = uniqueName('anydesk');
    const bash = await blockedBinary(name, '/bin/bash');
    // The copied bash ignores TERM, says it is ready, then blocks reading its (never written) stdin.
    const child = await spawnProcess(bash, ['-c', 'trap "" TERM; echo ready; read -r _'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    await new Promise<void>((resolve) => child.child.stdout!.once('data', () => resolve()));
    const killer = new Killer({ graceMs: 300 });

    // Two overlapping polls see the same instance while it is being ended, then a later one.
    const first = Promise.all([
      sweep(killer, ['AnyDesk.exe', name], [child]),
      sweep(killer, [name], [child]),
    ]);
    const ended = await within(2_000, child.exited, 'el proceso que ignora SIGTERM termina');
    const overlapping = (await first).flat();
    const later = [...(await sweep(killer, [name], [child])), ...(await sweep(killer, [name], [child]))];

    expect(ended.signal).toBe('SIGKILL');
    expect(overlapping).toHaveLength(1);
    expect(overlapping[0]).toMatchObject({
      pid: child.pid,
      outcome: 'killed',
      signal: 'SIGKILL',
      first: true,
    });
    expect(later).toEqual([]);
  });

  it('reports once a process it cannot end (no permission), retries quietly, and reports the later success', async () => {
    const name = uniqueName('discord');
    const child = await spawnProcess(await blockedBinary(name), ['100']);
    let allowed = false;
    const killer = new Killer({
      send: (pid, signal) => {
        if (!allowed) throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
        process.kill(pid, signal);
      },
    });

    const firstSweep = await sweep(killer, [name], [child]);
    const quietSweeps = [
      ...(await sweep(killer, [name], [child])),
      ...(await sweep(killer, [name], [child])),
    ];
    expect(firstSweep).toHaveLength(1);
    expect(firstSweep[0]).toMatchObject({ outcome: 'failed', error: 'EPERM', signal: null, first: true });
    expect(quietSweeps).toEqual([]);
    expect(running(child)).toBe(true);

    allowed = true;
    const retry = await sweep(killer, [name], [child]);
    expect(retry).toHaveLength(1);
    expect(retry[0]).toMatchObject({ outcome: 'killed', first: false });
    await child.exited;
  });
});

describe('Killer bookkeeping', () => {
  const at = (iso: string, pid = 4242): RunningProcess => ({
    pid,
    ppid: 1,
    name: 'discord',
    path: '/opt/discord/discord',
    startTime: new Date(iso),
  });

  it('names an instance by pid and start time', () => {
    expect(instanceKey(at('2026-10-15T10:00:00Z'))).not.toBe(instanceKey(at('2026-10-15T10:00:05Z')));
    expect(instanceKey(at('2026-10-15T10:00:00Z'))).toBe(instanceKey(at('2026-10-15T10:00:00Z')));
    expect(instanceKey({ pid: 9, ppid: 1, name: 'Discord.exe' })).toBe('9@discord');
  });

  it('in dry run detects each instance once and sends no signal; a reused pid is a new instance', async () => {
    const killer = new Killer({
      dryRun: true,
      send: () => {
        throw new Error('no signal in dry run');
      },
    });
    const a = at('2026-10-15T10:00:00Z');
    expect(await killer.handle(a, 'Discord.exe')).toMatchObject({ outcome: 'detected', first: true });
    expect(await killer.handle(a, 'Discord.exe')).toBeNull();
    const reused = at('2026-10-15T11:00:00Z');
    expect(await killer.handle(reused, 'Discord.exe')).toMatchObject({ outcome: 'detected', first: true });
  });

  it('never signals nor counts a zombie named like a blocked program (it runs nothing)', async () => {
    const root = await tempDir('agent-proc-');
    await mkdir(path.join(root, '4242'));
    await writeFile(
      path.join(root, '4242', 'stat'),
      '4242 (discord) Z 1 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 12345 0 0',
    );
    const killer = new Killer({
      family: true,
      procRoot: root,
      send: () => {
        throw new Error('no signal to a zombie');
      },
    });
    expect(await killer.handle(at('2026-10-15T10:00:00Z'), 'Discord.exe')).toBeNull();
    expect(await killer.handle(at('2026-10-15T10:00:00Z'), 'Discord.exe')).toBeNull();
  });

  it('forgets instances that left the process list', async () => {
    const killer = new Killer({ dryRun: true });
    await killer.handle(at('2026-10-15T10:00:00Z', 1), 'x');
    await killer.handle(at('2026-10-15T10:00:00Z', 2), 'x');
    killer.retain([at('2026-10-15T10:00:00Z', 2)]);
    expect(killer.remembered).toBe(1);
  });
});
