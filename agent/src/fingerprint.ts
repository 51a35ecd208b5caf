/**
 * SHA-256 fingerprints of the executables processes run (issue 14, DESIGN.md section 6 "Renamed
 * programs"): a renamed copy of a blocked program has the same fingerprint, whatever its file is
 * called. Hashing reads the whole file, so it is cached twice over: by file (path, size, mtime and
 * inode: a changed file is hashed again) and by process instance (`instanceKey`: a process already
 * fingerprinted costs one map lookup per poll, not even a stat). Never throws: a file that cannot be
 * read, is not a regular file or is larger than the cap answers null.
 */
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { instanceKey } from './killer.js';
import { bytesOfProgram } from './program-of.js';
import type { RunningProcess } from './scanner.js';
import { OnceCache } from './bounded-cache.js';

/** A fingerprint: 64 lower-case hex digits (`sha256Schema` in shared). */
export type Sha256 = string;

/** Largest executable hashed (bytes): 512 MiB. A bigger file answers null rather than minutes of reading. */
export const FINGERPRINT_MAX_BYTES = 512 * 1024 * 1024;

/** Most files remembered with their fingerprint; the oldest is forgotten first. */
export const FINGERPRINT_FILE_CACHE = 4_096;

/** Most process instances remembered; `retain` keeps it to the running ones anyway. */
export const FINGERPRINT_INSTANCE_CACHE = 20_000;

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
      fingerprintKey(proc),
      () => this.resolve(proc),
      () => (this.stats.instanceHits += 1),
    );
  }

  /** The fingerprint an instance got earlier, if any (undefined: never asked). No I/O. */
  known(proc: RunningProcess): Sha256 | null | undefined {
    return this.instances.done.get(fingerprintKey(proc));
  }

  /** Forgets instances absent from the latest process list, keeping memory bounded by what runs. */
  retain(current: readonly RunningProcess[]): void {
    const done = this.instances.done;
    if (done.size === 0) return;
    const live = new Set(current.map(fingerprintKey));
    for (const key of done.keys()) if (!live.has(key)) done.delete(key);
  }

  /** How many instances and files are remembered (tests). */
  get size(): { instances: number; files: number } {
    return { instances: this.instances.done.size, files: this.files.done.size };
  }

  private async resolve(proc: RunningProcess): Promise<Sha256 | null> {
    // A loader's or interpreter's program (program-of.ts) is judged by its own file; a relative one
    // (Windows, no working folder known) is not read: it would be looked up in the agent's folder.
    if (bytesOfProgram(proc)) {
      const file = proc.program.path;
      const info = path.isAbsolute(file) ? await statOrNull(file) : null;
      // A loader's program deleted or replaced since it was mapped: the very file it maps.
      const { mapped } = proc.program;
      const mappedInfo = mapped ? await statOrNull(mapped) : null;
      if (info && (!mappedInfo || sameFile(info, mappedInfo)))
        return this.hashCached(file, `${file}|${identity(info)}`, info);
      return mapped && mappedInfo ? this.hashCached(mapped, `exe|${identity(mappedInfo)}`, mappedInfo) : null;
    }
    const fromPath = proc.path ? await statOrNull(proc.path) : null;
    const exe = this.procRoot ? `${this.procRoot}/${proc.pid}/exe` : null;
    // stat follows /proc/<pid>/exe to the very inode the process runs, even when deleted or replaced.
    const running = exe ? await statOrNull(exe) : null;
    if (fromPath && (!running || sameFile(fromPath, running))) {
      return this.hashCached(proc.path!, `${proc.path!}|${identity(fromPath)}`, fromPath);
    }
    if (exe && running) {
      // Keyed by the inode, so every process of one deleted or replaced file shares one hash.
      return this.hashCached(exe, `exe|${identity(running)}`, running);
    }
    return null;
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

/**
 * The instance cache's key: the instance, and the program when it runs one (program-of.ts), so a
 * process that is judged by its program and by its own executable keeps both apart.
 */
function fingerprintKey(proc: RunningProcess): string {
  return bytesOfProgram(proc) ? `${instanceKey(proc)}\n${proc.program.path}` : instanceKey(proc);
}

async function statOrNull(file: string): Promise<Stats | null> {
  try {
    return await stat(file);
  } catch {
    return null;
  }
}

/** What makes a file's content "the same as last time": size, mtime, inode. */
function identity(info: Stats): string {
  return `${info.size}|${info.mtimeMs}|${info.dev}:${info.ino}`;
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}
