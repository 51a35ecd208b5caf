/**
 * A copy of a system program named like a blocked one, with the real agent (agent/README.md «Copias
 * modificadas»; agent/src/system-files.ts): the copy is ended by name, but the system program itself
 * keeps running, before and after, whatever the agent learned from the copy (its SHA-256, its likeness).
 * The "system program" is this test's own executable (its own build-id and bytes, helpers/processes.ts)
 * placed in a folder the test made under /var/lib, owned by root and writable by no one else (what the
 * rule takes for the system's): the agent never learns a real system binary.
 */
import { appendFile, chmod, copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readBuildId } from '../src/build-id.js';
import { SimilarPrograms } from '../src/similar-programs.js';
import { tlshOf } from '../src/similarity.js';
import { SYSTEM_PROGRAM_DIRS, SystemBuildIds, systemBuildIds } from '../src/system-build-ids.js';
import { SystemFiles } from '../src/system-files.js';
import { useFakeAgentBed } from './helpers/fake-agent-bed.js';
import { blockedBinary, running, spawnProcess, tempDir, uniqueName, within } from './helpers/processes.js';

const systemDirs: string[] = [];

// Registered before the bed's: Vitest runs a file's afterEach hooks last first, so the folders go
// once the agents are stopped and the programs ended.
afterEach(async () => {
  await Promise.all(systemDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
const bed = useFakeAgentBed({ configRefreshMs: 600_000 });

/** This test's executable installed like a system program: root's, 0755, in a root-owned 0755 folder. */
async function systemProgram(name: string): Promise<string> {
  const dir = await mkdtemp('/var/lib/agent-system-');
  systemDirs.push(dir);
  await chmod(dir, 0o755);
  const file = path.join(dir, name);
  await copyFile(await blockedBinary(uniqueName('fuente')), file);
  await chmod(file, 0o755);
  return file;
}

describe('real agent: a copy of a system program named like a blocked one', () => {
  // An exact copy (the agent learns its SHA-256 and its likeness) and one with a byte appended (a
  // SHA-256 of its own: only its likeness, the same build-id and a near digest, could end the tool).
  it.each([
    ['an exact copy', false],
    ['a copy with one byte appended', true],
  ])('%s is ended by name while the system program itself keeps running', async (_, patched) => {
    expect(process.getuid?.()).toBe(0);
    const blocked = uniqueName('prog-bloq');
    const tool = await systemProgram(uniqueName('herramienta'));
    expect(new SystemFiles().isSystem(tool)).toBe(true);
    const before = await spawnProcess(tool, ['100']);

    const server = await bed.fakeServer([blocked]);
    const { handle } = await bed.agent(server);

    // The contestant's `cp <system program> /tmp/<blocked name>`: the same bytes, build-id and digest.
    const copy = path.join(await tempDir('agent-copy-'), blocked);
    await copyFile(tool, copy);
    if (patched) await appendFile(copy, Buffer.from([0x2a]));
    expect(new SystemFiles().isSystem(copy)).toBe(false);
    const child = await spawnProcess(copy, ['100']);
    const exit = await within(10_000, child.exited, 'el agente termina la copia por su nombre');
    expect(exit.signal).not.toBeNull();

    // Scans after the kill: neither the instance already running nor a new one is ended.
    const after = await spawnProcess(tool, ['100']);
    for (let i = 0; i < 4; i += 1) await handle.sweep();
    expect(running(before)).toBe(true);
    expect(running(after)).toBe(true);

    await handle.flush();
    expect([...server.stored.values()]).toEqual([
      expect.objectContaining({ process: blocked, match: 'nombre', killed: true }),
    ]);
  });
});

describe('real agent: a copy of a program of the system folders, not running', () => {
  // The agent's lister sees only this test's children: whatever it learned, it ends nothing else.
  it('is ended by name, but its likeness is neither learned nor sent', async () => {
    await systemBuildIds.built();
    const blocked = uniqueName('prog-bloq');
    const server = await bed.fakeServer([blocked]);
    const { handle } = await bed.agent(server);
    const dir = await tempDir('agent-copy-');
    const copy = path.join(dir, blocked);
    await copyFile('/bin/sleep', copy);
    const child = await spawnProcess(copy, ['100']);
    const exit = await within(10_000, child.exited, 'el agente termina la copia por su nombre');
    expect(exit.signal).not.toBeNull();
    // Another copy with a byte appended, under another name: only a learned likeness could end it.
    const other = path.join(dir, uniqueName('otra'));
    await copyFile('/bin/sleep', other);
    await appendFile(other, Buffer.from([0x2a]));
    const patched = await spawnProcess(other, ['100']);
    for (let i = 0; i < 4; i += 1) await handle.sweep();
    expect(running(patched)).toBe(true);
    await handle.flush();
    const stored = [...server.stored.values()];
    expect(stored).toEqual([expect.objectContaining({ process: blocked, match: 'nombre', killed: true })]);
    expect(stored[0]).not.toHaveProperty('build_id');
    expect(stored[0]).not.toHaveProperty('tlsh');
  });
});

describe('SystemBuildIds (system-build-ids.ts)', () => {
  it("holds the build-ids of the system folders' programs, none of a user's place", async () => {
    const tool = await systemProgram(uniqueName('herramienta'));
    const ids = new SystemBuildIds([path.dirname(tool)]);
    expect(await ids.has((await readBuildId(tool))!)).toBe(true);
    expect(await ids.has((await readBuildId('/bin/sleep'))!)).toBe(false);
    const inTmp = await blockedBinary(uniqueName('propio'));
    expect(await new SystemBuildIds([path.dirname(inTmp)]).has((await readBuildId(inTmp))!)).toBe(false);
    expect(SYSTEM_PROGRAM_DIRS).toContain('/usr/bin');
    expect(await systemBuildIds.has((await readBuildId('/bin/sleep'))!)).toBe(true);
    expect(await new SystemBuildIds(SYSTEM_PROGRAM_DIRS, new SystemFiles(), false).has('ab'.repeat(20))).toBe(
      false,
    );
  });
});

describe('SystemFiles (system-files.ts)', () => {
  it("takes root's unwritable files in root's unwritable folders, nothing in a user's place", async () => {
    const files = new SystemFiles(true);
    expect(files.isSystem('/bin/sleep')).toBe(true);
    const tool = await systemProgram(uniqueName('herramienta'));
    expect(files.isSystem(tool)).toBe(true);
    // Root's file, but in /tmp (anyone writes there) or writable by its group.
    const inTmp = path.join(await tempDir(), 'sleep');
    await copyFile('/bin/sleep', inTmp);
    await chmod(inTmp, 0o755);
    expect(files.isSystem(inTmp)).toBe(false);
    const groupWritable = path.join(path.dirname(tool), 'escribible');
    await copyFile('/bin/sleep', groupWritable);
    await chmod(groupWritable, 0o775);
    expect(files.isSystem(groupWritable)).toBe(false);
    expect(files.isSystem('relativo/sleep')).toBe(false);
    expect(files.isSystem(path.join(path.dirname(tool), 'no-existe'))).toBe(false);
    // A system interpreter's script is judged as the script; another system (Windows) has none.
    expect(files.ofProcess({ path: '/bin/sleep', program: { path: inTmp } })).toBe(false);
    expect(files.ofProcess({ path: inTmp, program: { path: inTmp, judgeBytes: false } })).toBe(false);
    expect(new SystemFiles(false).isSystem('/bin/sleep')).toBe(false);
  });
});

describe('SimilarPrograms and the system files seen (similar-programs.ts)', () => {
  it('forgets a learned likeness a system file has, and never learns one again', async () => {
    const sleep = { tlsh: tlshOf(await readFile('/bin/sleep')), buildId: 'ab'.repeat(20) };
    const known = new SimilarPrograms();
    known.learn(sleep, 'bloqueado');
    expect(known.match(sleep)?.blocked).toBe('bloqueado');
    expect(known.matchesSystem(sleep)).toBe(false);
    // The system file is seen with another build-id but the same digest: the learned file goes.
    known.systemSeen({ tlsh: sleep.tlsh, buildId: null });
    expect(known.size).toBe(0);
    expect(known.match(sleep)).toBeNull();
    expect(known.matchesSystem(sleep)).toBe(true);
    known.learn(sleep, 'bloqueado');
    expect(known.size).toBe(0);
    // Another program is learned as before.
    const perl = { tlsh: tlshOf(await readFile('/usr/bin/perl')), buildId: null };
    expect(known.matchesSystem(perl)).toBe(false);
    known.learn(perl, 'otro');
    expect(known.match(perl)?.blocked).toBe('otro');
  });
});
