/**
 * The ELF build-ids of the programs in the system's program folders (agent/README.md «Copias
 * modificadas»): a file ended by name whose build-id is one of them is a copy of a system program
 * (a contestant's `cp /usr/bin/bash ~/<blocked name>`), so its likeness is neither learned nor sent
 * with the attempt, even when that program is not running. Built once per agent process, in the
 * background, on the first question: each system file (system-files.ts) directly in
 * `SYSTEM_PROGRAM_DIRS`, at most `SYSTEM_PROGRAM_FILES_MAX` files, reading a few KiB of each
 * (build-id.ts), in the agent's thread, in slices of at most `SLICE_MS` between which scans go on.
 * Linux only. Never throws.
 */
import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { readBuildIdSync, type BuildId } from './build-id.js';
import { SystemFiles } from './system-files.js';

/** The folders of the system's programs (/bin and /sbin are links to these on a merged /usr). */
export const SYSTEM_PROGRAM_DIRS: readonly string[] = [
  '/usr/bin',
  '/usr/sbin',
  '/usr/libexec',
  '/usr/local/bin',
  '/usr/local/sbin',
  '/bin',
  '/sbin',
];

/** Most files read for the index: its cost stays bounded whatever the folders hold. */
const SYSTEM_PROGRAM_FILES_MAX = 8_192;

/**
 * Longest the index reads files before letting the agent's other work run (ms). Each file is read
 * with blocking calls (`readBuildIdSync`): read with promises, each of a file's four or five reads was
 * a round trip through libuv's thread pool, and on a machine whose cores were busy those round trips,
 * not the reads, made the index take 8 to 12 s instead of 0.8 s, while a patched copy of a program
 * just ended by name lived on, its build-id not learned before the index answers
 * (agent/test/copy-before-digest.test.ts).
 */
const SLICE_MS = 10;

/** The build-ids of the system's programs (see the file's comment). */
export class SystemBuildIds {
  private index: Promise<Set<BuildId>> | null = null;

  constructor(
    private readonly dirs: readonly string[] = SYSTEM_PROGRAM_DIRS,
    private readonly files = new SystemFiles(),
    private readonly enabled = process.platform === 'linux',
  ) {}

  /** Whether `buildId` is a system program's, once the index is built. */
  async has(buildId: BuildId): Promise<boolean> {
    return this.enabled && (await this.built()).has(buildId);
  }

  /** The index, built on the first call. */
  built(): Promise<Set<BuildId>> {
    this.index ??= this.build();
    return this.index;
  }

  private async build(): Promise<Set<BuildId>> {
    const ids = new Set<BuildId>();
    const folders = new Set<string>();
    let read = 0;
    let sliceStart = performance.now();
    for (const dir of this.dirs) {
      let names: string[];
      try {
        // A folder that links to another listed one (/bin → /usr/bin) is read once.
        const real = await realpath(dir);
        if (folders.has(real)) continue;
        folders.add(real);
        names = await readdir(dir);
      } catch {
        continue;
      }
      for (const name of names) {
        if (read >= SYSTEM_PROGRAM_FILES_MAX) return ids;
        const file = path.join(dir, name);
        if (!this.files.isSystem(file)) continue;
        read += 1;
        const id = readBuildIdSync(file);
        if (id) ids.add(id);
        if (performance.now() - sliceStart >= SLICE_MS) {
          await nextTurn();
          sliceStart = performance.now();
        }
      }
    }
    return ids;
  }
}

/** The agent process's index, shared by its scans (built at most once). */
export const systemBuildIds = new SystemBuildIds();
