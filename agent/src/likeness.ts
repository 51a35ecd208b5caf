/**
 * What a process's executable looks like beyond its exact bytes (docs/design.md section 6a: a program is
 * known by its bytes and their similarity; agent/src/README.md "Similar files"): its TLSH
 * similarity digest (similarity.ts) and its build-id (an ELF file's, build-id.ts; a PE file's
 * CodeView record, pe-identity.ts `readPeBuildId`). Computed in the background like the SHA-256
 * (fingerprint.ts) and cached the same way: by file identity (path, size, mtime,
 * device and inode: a changed file is read again; at most `LIKENESS_FILE_CACHE` files) and by
 * process instance (`instanceKey`: a process already read costs one map lookup per poll). One file
 * is digested at a time, in 64 KiB slices (similarity.ts `digestFile`), so a big new program never
 * holds up a scan or a kill; a file asked for a match (`ofProcess`) goes before files asked only
 * for the record of what ran (`background`), so new programs starting in numbers never delay the
 * judgement of a suspicious one. The build-id alone is also read apart (`buildIdOf`): a few KB,
 * never queued behind a digest, so a copy of a big program is known by it at once (a 70 MB node.exe's
 * digest takes about 0.6 s under Wine). Never throws.
 */
import type { Tlsh } from '@concurso/shared';
import type { Stats } from 'node:fs';
import { readBuildId, type BuildId } from './build-id.js';
import { readPeBuildId } from './pe-identity.js';
import { fileKey, processFile, processFileKey, statOrNull } from './process-file.js';
import type { RunningProcess } from './scanner.js';
import { digestFile, SIMILARITY_MAX_BYTES } from './similarity.js';
import { OnceCache } from './bounded-cache.js';

/** A file's likeness; each part null when the file has none (too small, too uniform, no build-id). */
export interface Likeness {
  tlsh: Tlsh | null;
  buildId: BuildId | null;
}

/** Most files remembered with their likeness; the oldest is forgotten first. */
const LIKENESS_FILE_CACHE = 4_096;

/** Most process instances remembered; `retain` keeps it to the running ones anyway. */
const LIKENESS_INSTANCE_CACHE = 20_000;

export interface LikenessReaderOptions {
  /** Most bytes digested per file. Default `SIMILARITY_MAX_BYTES`. */
  maxBytes?: number;
  /** Most files cached. Default `LIKENESS_FILE_CACHE`. */
  maxFiles?: number;
  /** Where `/proc` is (Linux); null on other systems. Default `/proc` on Linux. */
  procRoot?: string | null;
}

/** Counters, for tests and the bench. */
export interface LikenessStats {
  /** Files actually read and digested. */
  digested: number;
  /** Bytes digested, in all. */
  bytes: number;
}

/** Reads and caches likenesses of the files processes run. */
export class LikenessReader {
  private readonly maxBytes: number;
  private readonly procRoot: string | null;
  private readonly files: OnceCache<Likeness | null>;
  private readonly instances = new OnceCache<Likeness | null>(LIKENESS_INSTANCE_CACHE);
  /** Build-ids read apart from the digest (`buildIdOf`), by file key and by instance. */
  private readonly buildIdFiles: OnceCache<BuildId | null>;
  private readonly buildIdInstances = new OnceCache<BuildId | null>(LIKENESS_INSTANCE_CACHE);
  /** Files waiting to be digested, by file key; one is digested at a time (`pump`). */
  private readonly waiting = new Map<string, { urgent: boolean; run: () => Promise<void> }>();
  private busy = false;
  /** Instance key → the key of the file it waits for, while it waits. */
  private readonly fileOf = new Map<string, string>();
  readonly stats: LikenessStats = { digested: 0, bytes: 0 };

  constructor(options: LikenessReaderOptions = {}) {
    this.maxBytes = options.maxBytes ?? SIMILARITY_MAX_BYTES;
    this.files = new OnceCache(Math.max(1, options.maxFiles ?? LIKENESS_FILE_CACHE));
    this.buildIdFiles = new OnceCache(Math.max(1, options.maxFiles ?? LIKENESS_FILE_CACHE));
    this.procRoot =
      options.procRoot === undefined ? (process.platform === 'linux' ? '/proc' : null) : options.procRoot;
  }

  /**
   * The likeness of the file a process runs (its loader's or interpreter's program when it has one,
   * else its executable; on Linux `/proc/<pid>/exe` when the path is gone or holds another file), or
   * null when it cannot be read. Cached per instance.
   */
  ofProcess(proc: RunningProcess, background = false): Promise<Likeness | null> {
    const key = processFileKey(proc);
    if (!background) {
      // Asked for a match while its file waits as background work: that file goes first now.
      const queued = this.waiting.get(this.fileOf.get(key) ?? '');
      if (queued) queued.urgent = true;
    }
    return this.instances.get(key, () =>
      this.resolve(proc, background, key).finally(() => this.fileOf.delete(key)),
    );
  }

  /** The likeness an instance got earlier (undefined: never asked, or still being read). No I/O. */
  known(proc: RunningProcess): Likeness | null | undefined {
    return this.instances.done.get(processFileKey(proc));
  }

  /**
   * The build-id of the file a process runs (the same file as `ofProcess`), read alone: the headers and
   * a note or debug record, a few KB, at once rather than after the files waiting for a digest. Null
   * when the file has none or cannot be read. Cached per instance and per file, like `ofProcess`.
   */
  buildIdOf(proc: RunningProcess): Promise<BuildId | null> {
    const done = this.instances.done.get(processFileKey(proc));
    if (done !== undefined) return Promise.resolve(done?.buildId ?? null);
    return this.buildIdInstances.get(processFileKey(proc), async () => {
      const found = await processFile(proc, this.procRoot);
      if (!found || !found.info.isFile()) return null;
      const { file } = found;
      return this.buildIdFiles.get(found.key, () => buildIdOfFile(file));
    });
  }

  /** The likeness of a file by its path (cached by its identity), or null when it cannot be read. */
  async ofFile(file: string, background = false): Promise<Likeness | null> {
    const info = await statOrNull(file);
    return info ? this.cached(file, fileKey(file, info), info, background) : null;
  }

  /** Forgets instances absent from the latest process list. */
  retain(current: readonly RunningProcess[]): void {
    const done = this.instances.done;
    const ids = this.buildIdInstances.done;
    if (done.size === 0 && ids.size === 0) return;
    const live = new Set(current.map(processFileKey));
    for (const key of done.keys()) if (!live.has(key)) done.delete(key);
    for (const key of ids.keys()) if (!live.has(key)) ids.delete(key);
  }

  private async resolve(
    proc: RunningProcess,
    background: boolean,
    instance: string,
  ): Promise<Likeness | null> {
    const found = await processFile(proc, this.procRoot);
    return found ? this.cached(found.file, found.key, found.info, background, instance) : null;
  }

  private cached(
    file: string,
    key: string,
    info: Stats,
    background: boolean,
    instance?: string,
  ): Promise<Likeness | null> {
    if (instance !== undefined) this.fileOf.set(instance, key);
    // Asked for a match while waiting as background work: it goes first now.
    const queued = this.waiting.get(key);
    if (queued && !background) queued.urgent = true;
    return this.files.get(key, () => this.read(file, key, info, background));
  }

  private read(file: string, key: string, info: Stats, background: boolean): Promise<Likeness | null> {
    if (!info.isFile()) return Promise.resolve(null);
    return new Promise((resolve) => {
      const run = async () => {
        try {
          const [tlsh, buildId] = await Promise.all([digestFile(file, this.maxBytes), buildIdOfFile(file)]);
          this.stats.digested += 1;
          this.stats.bytes += Math.min(info.size, this.maxBytes);
          resolve({ tlsh, buildId });
        } catch {
          resolve(null);
        }
      };
      this.waiting.set(key, { urgent: !background, run });
      this.pump();
    });
  }

  /** Digests the waiting files one at a time, those asked for a match first. */
  private pump(): void {
    if (this.busy || this.waiting.size === 0) return;
    let next: [string, { run: () => Promise<void> }] | undefined;
    for (const entry of this.waiting) {
      if (entry[1].urgent) {
        next = entry;
        break;
      }
      next ??= entry;
    }
    const [key, job] = next!;
    this.waiting.delete(key);
    this.busy = true;
    void job.run().finally(() => {
      this.busy = false;
      this.pump();
    });
  }
}

/** A file's ELF build-id, else its PE CodeView build-id, else null. Never throws. */
async function buildIdOfFile(file: string): Promise<BuildId | null> {
  return (await readBuildId(file).catch(() => null)) ?? (await readPeBuildId(file));
}
