/**
 * Which running processes are forbidden (docs/design.md section 6): a process matches when its executable
 * file name equals a blocked name, case-insensitively and with or without `.exe`; a loader or an
 * interpreter also when the program it runs does, with or without its extension (program-of.ts).
 */
import { normaliseExecutableName, type AgentFingerprint } from '@concurso/shared';
import { executableName } from './executable-name.js';
import { bytesOfProgram, programNames, type ProgramRef } from './program-of.js';

/** What the matcher needs to know about a process (a subset of the scanner's `RunningProcess`). */
export interface ProcessIdentity {
  /** Process name as the OS lists it (on Linux `comm`, truncated to 15 characters). */
  name: string;
  /** Full path of the executable, when the OS tells it (Linux: `/proc/<pid>/exe`). */
  path?: string;
  /**
   * When the executable is a loader or an interpreter, the program it runs (program-of.ts: the script,
   * jar or mapped ELF, never the rest of its command line): matching and fingerprints judge that file.
   */
  program?: ProgramRef;
}

/** Decides whether a process is blocked: the blocked name as configured (e.g. `Discord.exe`), or null. */
export type Matcher = (proc: ProcessIdentity) => string | null;

// The rule itself lives in shared: the server's inventory and the web compare names the same way.
export { executableName, normaliseExecutableName };

/**
 * Builds a matcher for a blocked list (executable names such as `Discord.exe`, `chrome.exe`,
 * `firefox`). Empty names are ignored; when two blocked names normalise alike, the first one wins.
 */
export function createMatcher(blocked: readonly string[]): Matcher {
  const byNormalised = new Map<string, string>();
  for (const name of blocked) {
    const key = normaliseExecutableName(name);
    if (key !== '' && !byNormalised.has(key)) byNormalised.set(key, name.trim());
  }
  const ownName: Matcher = (proc) => {
    const key = normaliseExecutableName(executableName(proc));
    return key === '' ? null : (byNormalised.get(key) ?? null);
  };
  // The executable's own name first; a loader's or interpreter's program after (programMatch).
  return (proc) => ownName(proc) ?? programMatch(ownName, proc);
}

/**
 * Whether `matcher` blocks `proc` for the program it runs (program-of.ts) rather than for its own
 * executable: the attempt then says «programa (vía python3)».
 */
export function blockedForProgram(matcher: Matcher, proc: ProcessIdentity): boolean {
  if (!proc.program) return false;
  return (
    matcher({ name: proc.name, ...(proc.path ? { path: proc.path } : {}) }) === null &&
    programMatch(matcher, proc) !== null
  );
}

/**
 * The blocked name a loader's or interpreter's program matches (agent/src/README.md, "Loaders and
 * interpreters"): its file name, or that name without its extension (`chatgpt.py` is `chatgpt`);
 * null when the process runs no program or its program is not blocked.
 */
function programMatch(matcher: Matcher, proc: ProcessIdentity): string | null {
  if (!proc.program) return null;
  for (const name of programNames(proc.program)) {
    const blocked = matcher({ name });
    if (blocked !== null) return blocked;
  }
  return null;
}

/**
 * Indexes the config's fingerprints (SHA-256 → blocked name as configured; docs/design.md
 * section 6 "Renamed programs").
 * When one fingerprint is listed under two blocked names, the first one wins, like `createMatcher`.
 */
export function indexFingerprints(fingerprints: readonly AgentFingerprint[]): Map<string, string> {
  const bySha = new Map<string, string>();
  for (const { process, sha256 } of fingerprints) {
    const sha = sha256.trim().toLowerCase();
    if (sha !== '' && process.trim() !== '' && !bySha.has(sha)) bySha.set(sha, process.trim());
  }
  return bySha;
}

/**
 * The file name a process ran as when it is not the blocked name it is reported under (a renamed
 * copy, caught by its fingerprint), else undefined: the attempt's `executable`.
 */
export function renamedAs(blocked: string, proc: ProcessIdentity): string | undefined {
  // A loader's or interpreter's program under the blocked name, with or without its extension, is
  // not renamed (`chatgpt.py` run for `chatgpt`). A runner judged by its own bytes is named as itself.
  const names = bytesOfProgram(proc) ? programNames(proc.program) : [executableName(proc).trim()];
  const executable = names[0]!;
  return names.some((name) => normaliseExecutableName(name) === normaliseExecutableName(blocked)) ||
    executable === ''
    ? undefined
    : executable;
}
