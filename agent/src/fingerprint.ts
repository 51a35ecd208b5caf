/**
 * SHA-256 fingerprints of the executables processes run (docs/design.md section 6 "Renamed
 * programs"): a renamed copy of a blocked program has the same fingerprint, whatever its file is
 * called. Hashing reads the whole file, so it is cached twice over: by file (path, size, mtime and
 * inode: a changed file is hashed again) and by process instance (`instanceKey`: a process already
 * fingerprinted costs one map lookup per poll, not even a stat). Never throws: a file that cannot be
 * read, is not a regular file or is larger than the cap answers null.
 */
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { processFile, processFileKey } from './process-file.js';
import type { RunningProcess } from './scanner.js';
import { OnceCache } from './bounded-cache.js';

/** A fingerprint: 64 lower-case hex digits (`sha256Schema` in shared). */
export type Sha256 = string;

/** Largest executable hashed (bytes): 512 MiB. A bigger file answers null rather than minutes of reading. */
const FINGERPRINT_MAX_BYTES = 512 * 1024 * 1024;

/** Most files remembered with their fingerprint; the oldest is forgotten first. */
const FINGERPRINT_FILE_CACHE = 4_096;

/** Most process instances remembered; `retain` keeps it to the running ones anyway. */
const FINGERPRINT_INSTANCE_CACHE = 20_000;

/** Most files hashed at once (each holds a descriptor and a 64 KiB buffer). */
const MAX_CONCURRENT_HASHES = 2;

/** Reads a file and answers its SHA-256 in hex. Throws when the file cannot be read. */
export type FileHasher = (file: string) => Promise<Sha256>;

/** Bytes read at a time while hashing. */
const CHUNK_BYTES = 64 * 1024;

/**
 * The default hasher: reads the file 64 KiB at a time into one buffer and feeds node:crypto, so a
 * 300 MB browser costs 64 KiB of memory and leaves no garbage behind (a read stream would allocate
 * a new buffer per chunk, which the agent's memory keeps as high-water after a big file).
 */
export const streamSha256: FileHasher = async (file) => {
  const handle = await open(file, 'r');
  try {
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
    return hash.digest('hex');
  } finally {
    await handle.close();
  }
};

export interface FingerprinterOptions {
  /** Replaces the file hasher (tests count its calls). Default `streamSha256`. */
  hasher?: FileHasher;
  /** Largest file hashed (bytes). Default `FINGERPRINT_MAX_BYTES`. */
  maxBytes?: number;
  /** Most files cached. Default `FINGERPRINT_FILE_CACHE`. */
  maxFiles?: number;
  /** Where `/proc` is (Linux); null on other systems. Default `/proc` on Linux. */
  procRoot?: string | null;
}

/** Counters, for tests and the bench. */
export interface FingerprintStats {
  /** Files actually read and hashed. */
  hashed: number;
  /** Answers from the file cache after a stat. */
  fileHits: number;
  /** Answers from the instance cache (no I/O at all). */
  instanceHits: number;
}

/** Fingerprints files and process instances, with the caches above. */
export class Fingerprinter {
  private readonly hasher: FileHasher;
  private readonly maxBytes: number;
  private readonly procRoot: string | null;
  /** File identity (`path|size|mtime|dev:ino`) → fingerprint or null; two callers read a file once. */
  private readonly files: OnceCache<Sha256 | null>;
  /**
   * `instanceKey` → fingerprint (or null: could not be read); a second caller while one is resolved
   * (the scan and the record of what ran) shares the stats.
   */
  private readonly instances = new OnceCache<Sha256 | null>(FINGERPRINT_INSTANCE_CACHE);
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  readonly stats: FingerprintStats = { hashed: 0, fileHits: 0, instanceHits: 0 };

  constructor(options: FingerprinterOptions = {}) {
    this.hasher = options.hasher ?? streamSha256;
    this.maxBytes = options.maxBytes ?? FINGERPRINT_MAX_BYTES;
    this.files = new OnceCache(Math.max(1, options.maxFiles ?? FINGERPRINT_FILE_CACHE));
    this.procRoot =
      options.procRoot === undefined ? (process.platform === 'linux' ? '/proc' : null) : options.procRoot;
  }

  /**
   * The fingerprint of a running process's executable, or null when it cannot be read. Cached per
   * instance: the second call for the same instance does no I/O. On Linux the process's
   * `/proc/<pid>/exe` is read instead of its path when the path is missing, gone ("(deleted)") or
   * now holds another file than the one the process runs. Two calls for one instance while it is
   * being resolved share that work.
   */
  ofProcess(proc: RunningProcess): Promise<Sha256 | null> {
    return this.instances.get(
      processFileKey(proc),
      () => this.resolve(proc),
      () => (this.stats.instanceHits += 1),
    );
  }

  /** The fingerprint an instance got earlier, if any (undefined: never asked). No I/O. */
  known(proc: RunningProcess): Sha256 | null | undefined {
    return this.instances.done.get(processFileKey(proc));
  }

  /** Forgets instances absent from the latest process list, keeping memory bounded by what runs. */
  retain(current: readonly RunningProcess[]): void {
    const done = this.instances.done;
    if (done.size === 0) return;
    const live = new Set(current.map(processFileKey));
    for (const key of done.keys()) if (!live.has(key)) done.delete(key);
  }

  /** How many instances and files are remembered (tests). */
  get size(): { instances: number; files: number } {
    return { instances: this.instances.done.size, files: this.files.done.size };
  }

  private async resolve(proc: RunningProcess): Promise<Sha256 | null> {
    const found = await processFile(proc, this.procRoot);
    return found ? this.hashCached(found.file, found.key, found.info) : null;
  }

  private hashCached(file: string, key: string, info: Stats): Promise<Sha256 | null> {
    return this.files.get(
      key,
      () => this.hash(file, info),
      () => (this.stats.fileHits += 1),
    );
  }

  private async hash(file: string, info: Stats): Promise<Sha256 | null> {
    if (!info.isFile() || info.size > this.maxBytes) return null;
    while (this.active >= MAX_CONCURRENT_HASHES) await new Promise<void>((r) => this.waiting.push(r));
    this.active += 1;
    try {
      this.stats.hashed += 1;
      const sha = await this.hasher(file);
      return /^[0-9a-f]{64}$/.test(sha) ? sha : null;
    } catch {
      return null;
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}
