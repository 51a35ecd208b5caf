/**
 * The system's own files (agent/README.md «Copias modificadas»; agent/src/README.md "Similar files"):
 * a file only root could have put where it is. A process running one is never ended for its likeness
 * (a similar digest or the same build-id) nor for a SHA-256 learned from this machine's own kills,
 * only by its name or by the exact SHA-256 of a config fingerprint: a contestant who copies
 * `/bin/sleep` under a blocked name gets that copy ended by name, never every `sleep` of the machine.
 */
import { statSync } from 'node:fs';
import path from 'node:path';

/** Folders where an ordinary account writes; nothing under them is the system's, whoever owns it. */
const USER_WRITABLE_PLACES: readonly string[] = ['/tmp', '/var/tmp', '/dev/shm', '/run/user', '/home'];

/** Most paths (files and folders) remembered; the memory is cleared when full. */
const SYSTEM_PATHS_MAX = 4_096;

/**
 * Whether a file's owner and mode are the system's: owned by root and writable by no one else (only
 * root can make such a file, so a contestant's copy never is). Also the rule for the runners whose
 * programs are judged by their bytes (program-of.ts).
 */
export function ownedBySystem(info: { uid: number; mode: number }): boolean {
  return info.uid === 0 && (info.mode & 0o022) === 0;
}

/**
 * Answers whether the file a process is judged by (its loader's or interpreter's program when the
 * system runs one, else its executable) is a system file: an absolute path outside
 * `USER_WRITABLE_PLACES`, the file and every folder above it `ownedBySystem`. Linux only: elsewhere
 * nothing is (the likeness rules stay as they are). Remembered per path (a stat per new path; a
 * file under a folder only root can write stays what it is unless root changes it). Never throws.
 */
export class SystemFiles {
  private readonly paths = new Map<string, boolean>();

  constructor(private readonly enabled = process.platform === 'linux') {}

  /** Whether `proc` is judged by a system file (see the class). */
  ofProcess(proc: { path?: string; program?: { path: string; judgeBytes?: boolean } }): boolean {
    // The same file as its fingerprint and likeness (program-of.ts `bytesOfProgram`).
    const file = proc.program && proc.program.judgeBytes !== false ? proc.program.path : proc.path;
    return file ? this.isSystem(file) : false;
  }

  /** Whether `file` is a system file (see the class). */
  isSystem(file: string): boolean {
    if (!this.enabled || !path.isAbsolute(file)) return false;
    const resolved = path.resolve(file);
    if (USER_WRITABLE_PLACES.some((place) => resolved === place || resolved.startsWith(`${place}/`))) {
      return false;
    }
    return this.owned(resolved, false) && this.folderOwned(path.dirname(resolved));
  }

  private folderOwned(dir: string): boolean {
    if (!this.owned(dir, true)) return false;
    const parent = path.dirname(dir);
    return parent === dir || this.folderOwned(parent);
  }

  private owned(file: string, folder: boolean): boolean {
    let known = this.paths.get(file);
    if (known === undefined) {
      try {
        const info = statSync(file);
        known = (folder ? info.isDirectory() : info.isFile()) && ownedBySystem(info);
      } catch {
        known = false;
      }
      if (this.paths.size >= SYSTEM_PATHS_MAX) this.paths.clear();
      this.paths.set(file, known);
    }
    return known;
  }
}
