/**
 * Whether the agent may trust a folder or file another account could have prepared. The agent runs as
 * root (or SYSTEM) and reads its data folder before the server says anything: the saved policy, the
 * saved configuration, the lock. Whoever can write that folder (or replace it, by writing a folder
 * above it) can plant a lock so the agent refuses to start, or a configuration that blocks nothing. The
 * key file proves the team's machine to the server. So both must belong to root, or to the account
 * running the agent when it is not root (a developer's machine), and nobody else may write them.
 *
 * POSIX only: on Windows Node reports every file as owned by uid 0 with a mode of 666 or 444, whatever
 * its ACL says, so these checks answer "safe" there and windows-acl.ts reads the ACL with PowerShell
 * (`Get-Acl`) instead, a best effort; the install command is what sets it (agent/README.md: the folder
 * goes to the administrators and SYSTEM only, without inheritance).
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** Write permission for the group and for others in a POSIX mode. */
const GROUP_OR_OTHERS_WRITE = 0o022;
/** The sticky bit: in such a folder only an entry's owner (or root) may rename or delete it. */
const STICKY = 0o1000;

/** The account the checks accept besides root, and the platform whose rules apply (tests pass others). */
export interface SecurePathOptions {
  /** Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** The uid running the agent. Default `process.getuid()` (0 when the platform has none). */
  uid?: number;
}

/** What is wrong with one path: its owner or its mode. */
export interface InsecurePath {
  /** The path that failed: the one checked, or a folder above it. */
  path: string;
  /** Its owner's uid. */
  uid: number;
  /** Its permission bits, as `chmod` writes them (`775`, `1777`). */
  mode: string;
}

/**
 * Checks a data folder and every folder above it, both as given and as its links resolve (a link's
 * target is what is read): each must belong to root or to the running account, and the folder itself
 * must not be writable by group or others. A folder above may be writable by others only with the
 * sticky bit (as /tmp): then nobody else can rename the folder below it away. Answers the first path
 * that fails, or null when all are fine (and on Windows, see above).
 * @throws the file system's error when the folder cannot be read (ENOENT, EACCES...).
 */
export async function insecureFolder(
  dir: string,
  options: SecurePathOptions = {},
): Promise<InsecurePath | null> {
  if ((options.platform ?? process.platform) === 'win32') return null;
  const uid = options.uid ?? runningUid();
  const given = path.resolve(dir);
  const real = await realpath(given);
  const checked = new Set<string>();
  for (const start of [real, given]) {
    for (let current = start, first = true; ; first = false) {
      if (!checked.has(current)) {
        checked.add(current);
        const info = await stat(current);
        const sticky = !first && (info.mode & STICKY) !== 0;
        if (!ownerAccepted(info.uid, uid) || ((info.mode & GROUP_OR_OTHERS_WRITE) !== 0 && !sticky))
          return describe(current, info);
      }
      const parent = path.dirname(current);
      if (parent === current) break;
      current = parent;
    }
  }
  return null;
}

/**
 * Whether a file's owner (`ownerUid`, from its stat) is root or the running account. On Windows always
 * true (see above). The key file's mode is checked by key-file.ts, which also refuses reading by others.
 */
export function ownerTrusted(ownerUid: number, options: SecurePathOptions = {}): boolean {
  if ((options.platform ?? process.platform) === 'win32') return true;
  return ownerAccepted(ownerUid, options.uid ?? runningUid());
}

/** Root, or the account running the agent. */
function ownerAccepted(owner: number, running: number): boolean {
  return owner === 0 || owner === running;
}

function runningUid(): number {
  return typeof process.getuid === 'function' ? process.getuid() : 0;
}

function describe(file: string, info: { uid: number; mode: number }): InsecurePath {
  return { path: file, uid: info.uid, mode: (info.mode & 0o7777).toString(8).padStart(3, '0') };
}
