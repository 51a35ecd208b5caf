import { appendFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Fingerprinter, streamSha256, type FileHasher } from '../src/fingerprint.js';
import { listProcesses, type RunningProcess } from '../src/scanner.js';
import { blockedBinary, cleanUp, sha256Of, spawnProcess, tempDir, uniqueName } from './helpers/processes.js';

afterEach(cleanUp);

/** The real hasher, counting the files it reads. */
function countingHasher(): { hasher: FileHasher; reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    hasher: (file) => {
      reads.push(file);
      return streamSha256(file);
    },
  };
}

/** Pids no process has (above Linux's pid_max), one per call: no instance cache, no `/proc/<pid>/exe`. */
let ghostPid = 900_000_000;

/** A file's fingerprint through the agent's one entry: a process that ran it, known only by its path. */
const ofFile = (prints: Fingerprinter, file: string) =>
  prints.ofProcess({ pid: ghostPid++, ppid: 1, name: path.basename(file), path: file });

/** This test's child as the real scanner lists it. */
async function listed(pid: number): Promise<RunningProcess> {
  const found = (await listProcesses()).find((p) => p.pid === pid);
  expect(found).toBeDefined();
  return found!;
}

describe('Fingerprinter: files', () => {
  it('answers the SHA-256 of the file and does not read it again while it is unchanged', async () => {
    const file = path.join(await tempDir(), 'programa');
    await writeFile(file, 'contenido del programa');
    const { hasher, reads } = countingHasher();
    const prints = new Fingerprinter({ hasher });

    const first = await ofFile(prints, file);
    expect(first).toBe(await sha256Of(file));
    expect(await ofFile(prints, file)).toBe(first);
    expect(await ofFile(prints, file)).toBe(first);
    expect(reads).toEqual([file]);
    expect(prints.stats).toMatchObject({ hashed: 1, fileHits: 2 });
  });

  it('reads a changed file again (size or mtime changed, or another file renamed over it)', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'programa');
    await writeFile(file, 'versión uno');
    const { hasher, reads } = countingHasher();
    const prints = new Fingerprinter({ hasher });
    const before = await ofFile(prints, file);

    await appendFile(file, ' y algo más');
    const after = await ofFile(prints, file);
    expect(after).toBe(await sha256Of(file));
    expect(after).not.toBe(before);

    // Same size, another inode: a file replaced by a rename.
    const other = path.join(dir, 'otro');
    await writeFile(other, 'versión dos y algo más');
    await rename(other, file);
    expect(await ofFile(prints, file)).toBe(await sha256Of(file));
    expect(reads).toHaveLength(3);
  });

  it('answers null, never throws, for a missing file, a folder, a file over the cap or a read error', async () => {
    const dir = await tempDir();
    const big = path.join(dir, 'grande');
    await writeFile(big, Buffer.alloc(2048));
    const prints = new Fingerprinter({ maxBytes: 1024 });
    expect(await ofFile(prints, path.join(dir, 'no-existe'))).toBeNull();
    expect(await ofFile(prints, dir)).toBeNull();
    expect(await ofFile(prints, big)).toBeNull();

    const small = path.join(dir, 'chico');
    await writeFile(small, 'x');
    const failing = new Fingerprinter({
      hasher: () => Promise.reject(Object.assign(new Error('EACCES'), { code: 'EACCES' })),
    });
    expect(await ofFile(failing, small)).toBeNull();
  });

  it('reads one file once when many ask at the same time', async () => {
    const file = path.join(await tempDir(), 'programa');
    await writeFile(file, 'x'.repeat(100_000));
    const { hasher, reads } = countingHasher();
    const prints = new Fingerprinter({ hasher });
    const answers = await Promise.all(Array.from({ length: 10 }, () => ofFile(prints, file)));
    expect(new Set(answers)).toEqual(new Set([await sha256Of(file)]));
    expect(reads).toHaveLength(1);
  });

  it('keeps at most maxFiles files', async () => {
    const dir = await tempDir();
    const prints = new Fingerprinter({ maxFiles: 3 });
    for (let i = 0; i < 6; i++) {
      const file = path.join(dir, `f${i}`);
      await writeFile(file, String(i));
      await ofFile(prints, file);
    }
    expect(prints.size.files).toBe(3);
  });
});

describe('Fingerprinter: running processes (real children)', () => {
  it('an instance already fingerprinted costs no I/O; another instance of the same file is not re-read', async () => {
    const file = await blockedBinary(uniqueName('programa'));
    const { hasher, reads } = countingHasher();
    const prints = new Fingerprinter({ hasher });
    const one = await spawnProcess(file, ['100']);
    const two = await spawnProcess(file, ['100']);
    const procOne = await listed(one.pid);
    const procTwo = await listed(two.pid);

    const expected = await sha256Of(file);
    // Two callers while the instance is being resolved share one resolution.
    const resolving = prints.ofProcess(procOne);
    expect(prints.ofProcess(procOne)).toBe(resolving);
    expect(await resolving).toBe(expected);
    expect(await prints.ofProcess(procOne)).toBe(expected);
    expect(prints.known(procOne)).toBe(expected);
    expect(await prints.ofProcess(procTwo)).toBe(expected);
    expect(reads).toHaveLength(1);
    expect(prints.stats).toMatchObject({ hashed: 1, instanceHits: 1, fileHits: 1 });

    // Instances absent from the latest list are forgotten.
    prints.retain([procTwo]);
    expect(prints.size.instances).toBe(1);
    expect(prints.known(procOne)).toBeUndefined();
  });

  it.runIf(process.platform === 'linux')(
    'reads /proc/<pid>/exe when the file was deleted or replaced after the process started',
    async () => {
      const deletedFile = await blockedBinary(uniqueName('borrado'));
      const deletedSha = await sha256Of(deletedFile);
      const deleted = await spawnProcess(deletedFile, ['100']);
      const replacedFile = await blockedBinary(uniqueName('reemplazado'));
      const replacedSha = await sha256Of(replacedFile);
      const replaced = await spawnProcess(replacedFile, ['100']);

      await rm(deletedFile);
      // Another file now sits at the path the process was started from.
      const other = `${replacedFile}.nuevo`;
      await writeFile(other, 'otro contenido');
      await rename(other, replacedFile);

      const prints = new Fingerprinter();
      const deletedProc = await listed(deleted.pid);
      expect(deletedProc.path).toBe(deletedFile); // ps-list drops " (deleted)"
      expect(await prints.ofProcess(deletedProc)).toBe(deletedSha);
      expect(await prints.ofProcess(await listed(replaced.pid))).toBe(replacedSha);
      // The path alone gives the new file.
      expect(await ofFile(prints, replacedFile)).toBe(await sha256Of(replacedFile));
    },
  );

  it('answers null for a process with no readable executable', async () => {
    const prints = new Fingerprinter({ procRoot: null });
    const ghost: RunningProcess = {
      pid: 999_999_999,
      ppid: 1,
      name: 'fantasma',
      path: '/no/existe/fantasma',
    };
    expect(await prints.ofProcess(ghost)).toBeNull();
    expect(await prints.ofProcess({ pid: 999_999_998, ppid: 1, name: 'sin-ruta' })).toBeNull();
  });
});
