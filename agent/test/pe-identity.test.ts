import { afterAll, describe, expect, it } from 'vitest';
import { appendFile, readFile, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { newStats } from '../src/running-agent.js';
import { Fingerprinter } from '../src/fingerprint.js';
import { Killer } from '../src/killer.js';
import { createMatcher } from '../src/matcher.js';
import { ObservedLog } from '../src/observed.js';
import { Outbox } from '../src/outbox.js';
import {
  PeIdentities,
  defaultPeIdentities,
  readPeVersionIdentity,
  versionResourceMatch,
} from '../src/pe-identity.js';
import type { RunningProcess } from '../src/scanner.js';
import { Sweeper } from '../src/sweeper.js';
import { TARGETS, nodeBinary } from '../scripts/node-binaries.js';
import { blockedBinary, cleanUp, spawnProcess, tempDir, uniqueName, within } from './helpers/processes.js';
import { mingwInstalled, windowsProgram } from './helpers/windows-program.js';

afterAll(cleanUp);

/**
 * The version resource as a Windows program's identity (agent/src/README.md "Version resource"): read
 * from the PE headers and the resource section alone, matched by OriginalFilename or InternalName,
 * never by ProductName. The programs are compiled here with names of the test's own.
 */
describe.runIf(mingwInstalled())('version resource of a Windows executable', () => {
  it('reads the five strings of a program compiled with its own resource', async () => {
    const blocked = uniqueName('prohibido');
    const exe = await windowsProgram('cualquiera.exe', {
      OriginalFilename: `${blocked}.exe`,
      InternalName: blocked,
      ProductName: 'Producto de Prueba',
      CompanyName: 'Pruebas del Concurso',
      FileDescription: 'Un programa de prueba',
    });
    expect(await readPeVersionIdentity(exe)).toEqual({
      originalFilename: `${blocked}.exe`,
      internalName: blocked,
      productName: 'Producto de Prueba',
      companyName: 'Pruebas del Concurso',
      fileDescription: 'Un programa de prueba',
    });
  });

  it("reads Windows' signed node.exe: it says node.exe", async () => {
    const identity = await readPeVersionIdentity(nodeBinary(TARGETS[1]));
    expect(identity).toMatchObject({ originalFilename: 'node.exe', productName: 'Node.js' });
  });

  it('reads only the headers and the resource section: a 6 GiB file answers at once, a cap says null', async () => {
    const blocked = uniqueName('grande');
    const exe = await windowsProgram(`${blocked}.exe`, { OriginalFilename: `${blocked}.exe` });
    // 6 GiB (sparse): more than any Buffer holds, so reading it whole would throw, not answer.
    await truncate(exe, 6 * 1024 ** 3);
    expect(await readPeVersionIdentity(exe)).toEqual({ originalFilename: `${blocked}.exe` });
    // A resource section over the cap is not read at all.
    expect(await readPeVersionIdentity(exe, 64)).toBeNull();
  });

  it('answers null for what is not a PE with a version resource, without throwing', async () => {
    const dir = await tempDir('agent-pe-');
    expect(await readPeVersionIdentity('/bin/sleep')).toBeNull();
    expect(await readPeVersionIdentity(path.join(dir, 'no-existe.exe'))).toBeNull();
    const program = await windowsProgram('sin-recurso.exe', {});
    const cut = path.join(dir, 'cortado.exe');
    await writeFile(cut, (await readFile(program)).subarray(0, 300));
    expect(await readPeVersionIdentity(cut)).toBeNull();
    const mz = path.join(dir, 'mz.exe');
    await writeFile(mz, Buffer.concat([Buffer.from('MZ'), Buffer.alloc(4096, 0xff)]));
    expect(await readPeVersionIdentity(mz)).toBeNull();
  });

  it('matches by OriginalFilename or InternalName, never by ProductName, CompanyName or FileDescription', () => {
    const byName = createMatcher(['Prohibido.exe', 'otro']);
    expect(versionResourceMatch({ originalFilename: 'PROHIBIDO.EXE' }, byName)).toEqual({
      blocked: 'Prohibido.exe',
      field: 'OriginalFilename',
      value: 'PROHIBIDO.EXE',
    });
    expect(versionResourceMatch({ originalFilename: 'nada.exe', internalName: 'otro' }, byName)).toEqual({
      blocked: 'otro',
      field: 'InternalName',
      value: 'otro',
    });
    expect(
      versionResourceMatch(
        { productName: 'Prohibido', companyName: 'Prohibido', fileDescription: 'Prohibido.exe' },
        byName,
      ),
    ).toBeNull();
    expect(versionResourceMatch(null, byName)).toBeNull();
  });

  it('reads each file once while it is unchanged, and again once it changes', async () => {
    const blocked = uniqueName('cache');
    const exe = await windowsProgram(`${blocked}.exe`, { OriginalFilename: `${blocked}.exe` });
    const identities = new PeIdentities();
    const one: RunningProcess = { pid: 101, ppid: 1, name: 'a.exe', path: exe };
    const two: RunningProcess = { pid: 102, ppid: 1, name: 'b.exe', path: exe };
    const [a, b] = await Promise.all([identities.ofProcess(one), identities.ofProcess(one)]);
    expect(a).toEqual({ originalFilename: `${blocked}.exe` });
    expect(b).toBe(a);
    expect(identities.known(one)).toBe(a);
    await identities.ofProcess(two);
    expect(identities.stats).toEqual({ read: 1, fileHits: 1 });
    // The same path with other bytes (size and mtime change): read again.
    await appendFile(exe, Buffer.alloc(512));
    const three: RunningProcess = { pid: 103, ppid: 1, name: 'c.exe', path: exe };
    await identities.ofProcess(three);
    expect(identities.stats.read).toBe(2);
    identities.retain([three]);
    expect(identities.known(one)).toBeUndefined();
    expect(identities.known(three)).toEqual({ originalFilename: `${blocked}.exe` });
  });

  it('is on by default only on Windows', () => {
    expect(defaultPeIdentities('win32')).toBeInstanceOf(PeIdentities);
    expect(defaultPeIdentities('linux')).toBeNull();
  });

  it('a scan ends a renamed copy whose version resource says it is a blocked program, reported by name with the name it ran as', async () => {
    const blocked = `${uniqueName('prohibido')}.exe`;
    const pe = await windowsProgram('notas.exe', { OriginalFilename: blocked, ProductName: 'Otro' });
    const innocent = await windowsProgram('editor.exe', {
      OriginalFilename: 'editor.exe',
      ProductName: blocked,
    });
    // Linux cannot run them: real processes of the test's own stand in, listed with those files as
    // their executables (as Windows' lister would list them).
    const runner = await blockedBinary(uniqueName('proceso'));
    const disguised = await spawnProcess(runner, ['300']);
    const honest = await spawnProcess(runner, ['300']);
    const dataDir = await tempDir('agent-pe-sweep-');
    const outbox = await Outbox.open(path.join(dataDir, 'pendientes.json'));
    const stats = newStats();
    const sweeper = new Sweeper(
      {
        lister: async () => [
          { pid: disguised.pid, ppid: process.pid, name: 'notas.exe', path: pe },
          { pid: honest.pid, ppid: process.pid, name: 'editor.exe', path: innocent },
        ],
        killer: new Killer({ graceMs: 500 }),
        fingerprinter: new Fingerprinter(),
        observed: new ObservedLog({ sender: { postObserved: async () => ({ stored: 0 }) } }),
        outbox,
        stats,
        log: () => undefined,
        dataDir,
        observing: () => false,
        queued: () => undefined,
        peIdentities: new PeIdentities(),
      },
      [blocked],
      [],
    );
    await sweeper.sweep();
    await within(5_000, disguised.exited, 'la copia renombrada termina');
    expect(honest.child.exitCode).toBeNull();
    expect(honest.child.signalCode).toBeNull();
    expect(stats.killed).toBe(1);
    expect(outbox.pending()).toEqual([
      expect.objectContaining({ process: blocked, executable: 'notas.exe', match: 'nombre', killed: true }),
    ]);
    honest.child.kill('SIGKILL');
  });
});
