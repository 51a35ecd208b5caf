import { OBSERVED_PATH_MAX, agentObservedBodySchema, type AgentObservedProcess } from '@concurso/shared';
import { describe, expect, it } from 'vitest';
import { AgentApiError } from '../src/errors.js';
import { ObservedLog, printableName, type ObservedLogOptions } from '../src/observed.js';
import { observedPath } from '../src/observed-where.js';
import type { RunningProcess } from '../src/scanner.js';

const SHA = 'a'.repeat(64);
/** A minute ago, whole seconds: the server accepts dates within 30 days of its clock. */
const BASE = Math.floor(Date.now() / 1000) * 1000 - 60_000;
const OTHER = 'b'.repeat(64);

/** A process instance: pid plus start time name it (killer.ts `instanceKey`). */
const proc = (pid: number, path: string, startedAt = 1_000): RunningProcess => ({
  pid,
  ppid: 1,
  name: path.split('/').pop()!,
  path,
  startTime: new Date(BASE - startedAt * 1000),
});

/** A log whose reports go to `posts`, failing with `fail()` while it answers an error. */
function log(options: Partial<ObservedLogOptions> = {}) {
  const posts: AgentObservedProcess[][] = [];
  let fail: (() => unknown) | null = null;
  const events: string[] = [];
  const observed = new ObservedLog({
    sender: {
      postObserved: (rows) => {
        const error = fail?.();
        if (error) return Promise.reject(error);
        // What the server would accept: the shared body schema.
        expect(agentObservedBodySchema.safeParse({ observed: rows }).success).toBe(true);
        posts.push(rows.map((row) => ({ ...row })));
        return Promise.resolve({ stored: rows.length });
      },
    },
    onFull: (max) => events.push(`full ${max}`),
    onRefused: (n) => events.push(`refused ${n}`),
    onFailed: () => events.push('failed'),
    ...options,
  });
  return { observed, posts, events, failWith: (f: (() => unknown) | null) => (fail = f) };
}

const at = (second: number) => new Date(BASE + second * 1000).toISOString();

describe('ObservedLog', () => {
  it('the first scan is the baseline; later new instances are fresh, each once', () => {
    const { observed } = log();
    const before = proc(10, '/usr/bin/bash');
    expect(observed.fresh([before])).toEqual([]);
    const started = proc(11, '/usr/bin/gcc');
    expect(observed.fresh([before, started])).toEqual([started]);
    expect(observed.fresh([before, started])).toEqual([]);
    // The same pid with another start time is another instance.
    const again = proc(11, '/usr/bin/gcc', 2_000);
    expect(observed.fresh([before, again])).toEqual([again]);
  });

  it('sees a process that execs another program as a new start, and ignores its own fork before the exec', () => {
    const { observed } = log();
    observed.fresh([]);
    // A shell that runs a program in its own process: same pid and start time, another executable.
    const shell = proc(20, '/usr/bin/bash');
    expect(observed.fresh([shell])).toEqual([shell]);
    const exec = proc(20, '/opt/juego');
    expect(observed.fresh([exec])).toEqual([exec]);
    // A child of the agent still running the agent's own image is a fork before its exec: not a start.
    const fork = { ...proc(21, process.execPath), ppid: process.pid };
    expect(observed.fresh([exec, fork])).toEqual([]);
    const program = { ...proc(21, '/opt/otro-juego'), ppid: process.pid };
    expect(observed.fresh([exec, program])).toEqual([program]);
  });

  it('dedupes by name and fingerprint, counting starts, first and last seen', async () => {
    const { observed, posts } = log();
    observed.add(proc(1, '/opt/juego'), SHA, at(1));
    observed.add(proc(2, '/opt/juego'), SHA, at(5));
    observed.add(proc(3, '/otra/carpeta/juego'), SHA, at(3));
    observed.add(proc(4, '/opt/juego'), OTHER, at(4));
    observed.add(proc(5, '/opt/sin-huella'), null, at(6));
    expect(observed.pending).toBe(3);
    await observed.send();
    expect(posts).toHaveLength(1);
    // Each with the path of its latest start (where a «programa nuevo» lies on the machine).
    expect(posts[0]).toEqual([
      { name: 'juego', sha256: SHA, path: '/opt/juego', first_seen: at(1), last_seen: at(5), starts: 3 },
      { name: 'juego', sha256: OTHER, path: '/opt/juego', first_seen: at(4), last_seen: at(4), starts: 1 },
      {
        name: 'sin-huella',
        sha256: null,
        path: '/opt/sin-huella',
        first_seen: at(6),
        last_seen: at(6),
        starts: 1,
      },
    ]);
    expect(observed.pending).toBe(0);
    // Sent entries are not sent again.
    await observed.send();
    expect(posts).toHaveLength(1);
  });

  it('a failed report keeps its entries, merged with the starts seen meanwhile', async () => {
    const { observed, posts, events, failWith } = log();
    observed.add(proc(1, '/opt/juego'), SHA, at(1));
    failWith(() => new AgentApiError('unreachable', 'No se pudo conectar'));
    await observed.send();
    expect(events).toEqual(['failed']);
    // A later start from another folder: the path of the latest start goes.
    observed.add(proc(2, '/home/equipo/juego'), SHA, at(9));
    failWith(null);
    await observed.send();
    expect(posts).toEqual([
      [
        {
          name: 'juego',
          sha256: SHA,
          path: '/home/equipo/juego',
          first_seen: at(1),
          last_seen: at(9),
          starts: 2,
        },
      ],
    ]);
  });

  it('a refused report (422) is dropped rather than resent forever', async () => {
    const { observed, posts, events, failWith } = log();
    observed.add(proc(1, '/opt/juego'), SHA, at(1));
    failWith(() => new AgentApiError('http', 'inválido', 422));
    await observed.send();
    expect(events).toEqual(['refused 1']);
    expect(observed.pending).toBe(0);
    failWith(null);
    await observed.send();
    expect(posts).toEqual([]);
  });

  it('sends in batches of batchSize', async () => {
    const { observed, posts } = log({ batchSize: 2 });
    for (let i = 0; i < 5; i++) observed.add(proc(i, `/opt/p${i}`), SHA, at(i));
    await observed.send();
    expect(posts.map((p) => p.length)).toEqual([2, 2, 1]);
  });

  it('keeps at most maxEntries pending and says so once', async () => {
    const { observed, events, posts } = log({ maxEntries: 2 });
    for (let i = 0; i < 5; i++) observed.add(proc(i, `/opt/p${i}`), SHA, at(i));
    expect(observed.pending).toBe(2);
    expect(events).toEqual(['full 2']);
    await observed.send();
    expect(posts.flat().map((r) => r.name)).toEqual(['p0', 'p1']);
    // Drained: there is room again.
    observed.add(proc(9, '/opt/p9'), SHA, at(9));
    expect(observed.pending).toBe(1);
  });

  it('reset drops what waits and takes a new baseline', async () => {
    const { observed, posts } = log();
    observed.fresh([]);
    observed.add(proc(1, '/opt/juego'), SHA, at(1));
    observed.reset();
    expect(observed.pending).toBe(0);
    expect(observed.fresh([proc(2, '/opt/nuevo')])).toEqual([]);
    await observed.send();
    expect(posts).toEqual([]);
  });

  it('observedPath cleans the path like a name and keeps OBSERVED_PATH_MAX characters', () => {
    expect(observedPath({ path: '/opt/juego\u0007' })).toBe('/opt/juego');
    expect(observedPath({})).toBeUndefined();
    expect(observedPath({ path: `/${'a'.repeat(2_000)}` })).toHaveLength(OBSERVED_PATH_MAX);
  });

  it('printableName drops what the server refuses and keeps 255 characters', () => {
    expect(printableName(' juego\u0007\n.exe ')).toBe('juego.exe');
    expect(printableName('x'.repeat(300))).toHaveLength(255);
    expect(printableName('😀'.repeat(200))).toHaveLength(254);
    expect(printableName('a\uD800b')).toBe('ab');
    expect(printableName('Equipo\u202Eexe.fdp')).toBe('Equipoexe.fdp');
  });
});
