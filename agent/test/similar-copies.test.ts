/**
 * Patched copies of a blocked program, with the real agent (agent/src/README.md "Similar files"): a
 * copy with one byte appended (a new SHA-256) under another name is ended after the original was
 * ended by name (the agent learned its likeness), and a renamed, patched copy of a file never ended
 * here is ended when the config's fingerprint carries the original's TLSH digest. Only executables
 * this test made are blocked (helpers/processes.ts: each has a build-id and bytes of its own).
 * The time from start to ended is printed: a target, not asserted (bench/ measures speed).
 */
import { appendFile, chmod, copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBuildId } from '../src/build-id.js';
import { tlshOf } from '../src/similarity.js';
import { useFakeAgentBed } from './helpers/fake-agent-bed.js';
import {
  blockedBinary,
  running,
  sha256Of,
  spawnProcess,
  tempDir,
  uniqueName,
  withOwnBuildId,
  within,
} from './helpers/processes.js';

const { fakeServer, agent } = useFakeAgentBed({ configRefreshMs: 600_000 });

/** A copy of `file` under `name` with one byte appended: a new SHA-256, the same program. */
async function oneByteMore(file: string, name: string, ownBuildId = false): Promise<string> {
  const copy = path.join(await tempDir('agent-similar-'), name);
  if (ownBuildId) await writeFile(copy, await withOwnBuildId(file));
  else await copyFile(file, copy);
  await appendFile(copy, Buffer.from([0x2a]));
  await chmod(copy, 0o755);
  return copy;
}

/** Spawns `file` and answers how long it ran until the agent ended it (ms). */
async function endedAfter(file: string, what: string): Promise<number> {
  const child = await spawnProcess(file, ['100']);
  const started = performance.now();
  const exit = await within(10_000, child.exited, what);
  expect(exit.signal).not.toBeNull();
  return performance.now() - started;
}

describe('real agent: similar files are the same program', () => {
  it('ends a one-byte-appended copy under another name after the original was ended by name', async () => {
    const blocked = uniqueName('prog-bloq');
    const original = await blockedBinary(blocked);
    const server = await fakeServer([blocked]);
    const { handle, lines } = await agent(server);
    // Nothing known of the file yet: no config fingerprint, nothing learned.
    expect(handle.config.fingerprints).toEqual([]);

    const byName = await endedAfter(original, 'el agente termina el original por su nombre');
    // The same build-id and a near digest; then with the build-id changed too (the digest alone).
    const disguise = uniqueName('editor');
    const copy = await oneByteMore(original, disguise);
    const patchedName = uniqueName('visor');
    const patched = await oneByteMore(original, patchedName, true);
    expect(await sha256Of(copy)).not.toBe(await sha256Of(original));
    expect(await readBuildId(patched)).not.toBe(await readBuildId(original));
    const copyMs = await endedAfter(copy, 'el agente termina la copia con un byte más');
    const patchedMs = await endedAfter(patched, 'el agente termina la copia con otro build-id');
    console.log(
      `similar: original por nombre ${byName.toFixed(0)} ms; copia con un byte más ${copyMs.toFixed(0)} ms; ` +
        `la misma con otro build-id (solo TLSH) ${patchedMs.toFixed(0)} ms (desde que arranca hasta que termina)`,
    );
    // An unrelated program of the test (its own bytes) keeps running.
    const innocent = await spawnProcess(await blockedBinary(uniqueName('notas')), ['100']);
    await handle.sweep();
    await handle.sweep();
    expect(running(innocent)).toBe(true);
    await handle.flush();

    const stored = [...server.stored.values()];
    const originalBytes = await readFile(original);
    expect(stored).toEqual([
      expect.objectContaining({
        process: blocked,
        match: 'nombre',
        tlsh: tlshOf(originalBytes),
        build_id: await readBuildId(original),
      }),
      expect.objectContaining({
        process: blocked,
        executable: disguise,
        sha256: await sha256Of(copy),
        match: 'similar',
        killed: true,
      }),
      expect.objectContaining({
        process: blocked,
        executable: patchedName,
        match: 'similar',
        killed: true,
        tlsh: tlshOf(await readFile(patched)),
      }),
    ]);
    expect(lines.some((l) => l.includes(`${blocked}, renombrado como ${disguise}`))).toBe(true);
  });

  it("ends a renamed, patched copy never ended here when the config's fingerprint carries the digest", async () => {
    const blocked = uniqueName('prog-bloq');
    const original = await blockedBinary(blocked);
    const server = await fakeServer([blocked]);
    // The contest's confirmed fingerprint of the original, with its digest (no build-id: the digest
    // alone decides), as the server sends it.
    server.config = {
      ...server.config,
      fingerprints: [
        { process: blocked, sha256: await sha256Of(original), tlsh: tlshOf(await readFile(original))! },
      ],
    };
    const { handle } = await agent(server);
    const disguise = uniqueName('calculadora');
    const copy = await oneByteMore(original, disguise, true);

    const ms = await endedAfter(copy, 'el agente termina la copia por el digest de la configuración');
    console.log(
      `similar: copia renombrada nunca vista, por el digest de la configuración, ${ms.toFixed(0)} ms`,
    );
    await handle.flush();
    expect([...server.stored.values()]).toEqual([
      expect.objectContaining({ process: blocked, executable: disguise, match: 'similar', killed: true }),
    ]);
  });
});
