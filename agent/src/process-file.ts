/**
 * Which file a process's bytes are read from, for every reader that judges a program by its bytes
 * (fingerprint.ts: the SHA-256; likeness.ts: the similarity digest and build-id), so that both always
 * read the same file and key their caches alike.
 */
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { instanceKey } from './instance-key.js';
import { bytesOfProgram } from './program-of.js';
import type { RunningProcess } from './scanner.js';

/** The file to read, its `stat`, and its cache key (path or `exe`, size, mtime, device and inode). */
export interface ProcessFile {
  file: string;
  info: Stats;
  /** Changes when the file's content may have changed: a changed file is read again. */
  key: string;
}

/** `stat` of `file`, or null when it cannot be read. */
export async function statOrNull(file: string): Promise<Stats | null> {
  try {
    return await stat(file);
  } catch {
    return null;
  }
}

/** The cache key of `file` as `info` describes it: what makes its content "the same as last time". */
export function fileKey(file: string, info: Stats): string {
  return `${file}|${info.size}|${info.mtimeMs}|${info.dev}:${info.ino}`;
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * An instance cache's key: the instance, and the program when it is judged by one (program-of.ts), so
 * a process judged by its program and by its own executable keeps both apart.
 */
export function processFileKey(proc: RunningProcess): string {
  return bytesOfProgram(proc) ? `${instanceKey(proc)}\n${proc.program.path}` : instanceKey(proc);
}

/**
 * The file whose bytes judge `proc`, or null when none can be read:
 * - a loader's or interpreter's program (program-of.ts) by its own path; a relative one (Windows, no
 *   working folder known) is not read (it would be looked up in the agent's folder); a loader's program
 *   deleted or replaced since it was mapped: the very file it maps;
 * - else its executable's path when that is still the file it runs, else (Linux) `<procRoot>/<pid>/exe`,
 *   which `stat` follows to the very inode the process runs even when deleted or replaced (keyed by
 *   the inode, so every process of one such file shares one read).
 */
export async function processFile(
  proc: RunningProcess,
  procRoot: string | null,
): Promise<ProcessFile | null> {
  const found = (file: string, info: Stats | null, key = file): ProcessFile | null =>
    info ? { file, info, key: fileKey(key, info) } : null;
  if (bytesOfProgram(proc)) {
    const file = proc.program.path;
    const info = path.isAbsolute(file) ? await statOrNull(file) : null;
    const { mapped } = proc.program;
    const mappedInfo = mapped ? await statOrNull(mapped) : null;
    if (info && (!mappedInfo || sameFile(info, mappedInfo))) return found(file, info);
    return mapped ? found(mapped, mappedInfo, 'exe') : null;
  }
  const fromPath = proc.path ? await statOrNull(proc.path) : null;
  const exe = procRoot ? `${procRoot}/${proc.pid}/exe` : null;
  const running = exe ? await statOrNull(exe) : null;
  if (proc.path && fromPath && (!running || sameFile(fromPath, running))) return found(proc.path, fromPath);
  return exe ? found(exe, running, 'exe') : null;
}
