import { randomUUID } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentAttempt } from '@concurso/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { Outbox } from '../src/outbox.js';
import { cleanUp, tempDir } from './helpers/processes.js';

afterEach(cleanUp);

const attempt = (process = 'Discord.exe'): AgentAttempt => ({
  event_id: randomUUID(),
  process,
  occurred_at: new Date().toISOString(),
});

describe('Outbox', () => {
  it('keeps pending attempts across a restart, in order, until they are acknowledged', async () => {
    const file = path.join(await tempDir(), 'sub', 'outbox.json');
    const first = await Outbox.open(file);
    const [a, b, c] = [attempt('Discord.exe'), attempt('chrome.exe'), attempt('firefox')];
    await first.add(a);
    await first.add(b, c);

    const reopened = await Outbox.open(file);
    expect(reopened.pending()).toEqual([a, b, c]);

    expect(await reopened.ack([a.event_id, c.event_id, 'desconocido-123'])).toBe(2);
    expect(reopened.pending()).toEqual([b]);
    expect((await Outbox.open(file)).pending()).toEqual([b]);
  });

  it('ignores an event id already queued', async () => {
    const outbox = await Outbox.open(path.join(await tempDir(), 'outbox.json'));
    const a = attempt();
    await outbox.add(a);
    await outbox.add(a, { ...a, process: 'otro' });
    expect(outbox.pending()).toEqual([a]);
  });

  it('refuses an attempt the server would refuse, queuing none of the call', async () => {
    const outbox = await Outbox.open(path.join(await tempDir(), 'outbox.json'));
    await expect(outbox.add(attempt(), { ...attempt(), event_id: 'corto' })).rejects.toThrow();
    expect(outbox.size).toBe(0);
  });

  it('writes atomically: concurrent changes all land and no temporary file is left', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'outbox.json');
    const outbox = await Outbox.open(file);
    const many = Array.from({ length: 50 }, () => attempt());
    await Promise.all(many.map((a) => outbox.add(a)));
    await outbox.ack(many.slice(0, 10).map((a) => a.event_id));

    expect(await readdir(dir)).toEqual(['outbox.json']);
    const onDisk = JSON.parse(await readFile(file, 'utf8')) as { version: number; attempts: AgentAttempt[] };
    expect(onDisk.version).toBe(1);
    expect(onDisk.attempts).toEqual(many.slice(10));
  });

  it('moves a damaged file aside and starts empty', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'outbox.json');
    await writeFile(file, '{"version":1,"attempts":[{"event_id":');
    const told: string[] = [];
    const outbox = await Outbox.open(file, { onCorrupt: (_f, movedTo) => told.push(movedTo) });

    expect(outbox.size).toBe(0);
    expect(told).toHaveLength(1);
    expect(await readFile(told[0]!, 'utf8')).toContain('"event_id":');
  });

  it('drops stored entries that are not valid attempts, keeping the rest', async () => {
    const file = path.join(await tempDir(), 'outbox.json');
    const good = attempt();
    await writeFile(file, JSON.stringify({ version: 1, attempts: [{ event_id: 'x' }, good, good] }));
    expect((await Outbox.open(file)).pending()).toEqual([good]);
  });

  it('sets refused attempts aside in the refused file with their reasons, never deleting them', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'outbox-x-team-7.json');
    const outbox = await Outbox.open(file);
    const [a, b, c] = [attempt(), attempt(), attempt()];
    await outbox.add(a, b, c);
    expect(outbox.refusedFile).toBe(path.join(dir, 'refused-x-team-7.json'));

    expect(
      await outbox.setAside([{ attempt: b, reasons: ['occurred_at: el intento tiene más de 30 días'] }]),
    ).toBe(1);
    expect(outbox.pending()).toEqual([a, c]);
    expect((await Outbox.open(file)).pending()).toEqual([a, c]);
    // Set aside again (a crash left it in both files): replaced, not repeated; a gone attempt is skipped.
    await outbox.add(b);
    await outbox.setAside([
      { attempt: b, reasons: ['otra razón'] },
      { attempt: attempt(), reasons: ['no está en la cola'] },
    ]);
    expect((await outbox.refused()).map((r) => [r.attempt, r.reasons])).toEqual([[b, ['otra razón']]]);

    // A damaged refused file is moved aside, never overwritten.
    await writeFile(outbox.refusedFile, '{"refused": [');
    const told: string[] = [];
    const reopened = await Outbox.open(file, { onCorrupt: (_f, movedTo) => told.push(movedTo) });
    await reopened.setAside([{ attempt: a, reasons: ['x'] }]);
    expect(told).toHaveLength(1);
    expect(await readFile(told[0]!, 'utf8')).toBe('{"refused": [');
    expect((await reopened.refused()).map((r) => r.attempt)).toEqual([a]);
    expect(reopened.pending()).toEqual([c]);
  });
});
