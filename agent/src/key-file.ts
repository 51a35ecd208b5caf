/**
 * Reads the agent's key from a file (`--key-file`). The key proves to the server that heartbeats and
 * attempts come from the team's machine, so the file must be private: on POSIX a file that group or
 * others may read or write is refused, with the `chmod 600` that fixes it, and so is one owned by
 * another account than root or the one running the agent. No message ever holds the file's content.
 */
import { open, stat } from 'node:fs/promises';
import { ownerTrusted } from './secure-path.js';
import { windowsAcl, type WindowsAcl } from './windows-acl.js';
import { TEXTS } from './texts.js';

/** A key is a few dozen characters; anything far larger is the wrong file, not a key. */
const MAX_KEY_FILE_BYTES = 4_096;

/** Why the key file cannot be used; `message` is one Spanish line naming the file, never its content. */
export class KeyFileError extends Error {
  override readonly name = 'KeyFileError';
}

/** Options of `readKeyFile`. */
export interface ReadKeyFileOptions {
  /** The platform whose rules apply. Default `process.platform` (tests pass another). */
  platform?: NodeJS.Platform;
  /** The uid running the agent. Default `process.getuid()` (tests pass another). */
  uid?: number;
  /**
   * Reads a file's owner and writers on Windows (windows-acl.ts). Default `windowsAcl` when the agent
   * runs on Windows, none elsewhere; answering null skips the check (PowerShell did not answer).
   */
  windowsAcl?: (file: string) => Promise<WindowsAcl | null>;
}

/**
 * Answers the key held in `file`, trimmed (a trailing newline from an editor or `echo` is fine),
 * read as UTF-8 or, with its byte-order mark, UTF-16LE.
 *
 * On POSIX the file's mode must give nothing to group or others (`mode & 0o077` is 0: 600 or 400),
 * and it must belong to root or to the account running the agent (secure-path.ts). On Windows the
 * mode is not checked: Node reports NTFS files as 666 or 444 whatever their ACLs say, and the ACLs are
 * what protect the file there, so keep it in a folder only the service account (or the administrator
 * running the agent) can read. Its owner and who may write it are read with PowerShell
 * (windows-acl.ts, a best effort: skipped when PowerShell does not answer).
 *
 * Throws `KeyFileError` when the file is missing, unreadable, not a regular file, open to other
 * users, owned by another account, empty (or only whitespace), or larger than 4 KiB.
 */
export async function readKeyFile(file: string, options: ReadKeyFileOptions = {}): Promise<string> {
  const platform = options.platform ?? process.platform;
  // stat before open: opening a FIFO or a device by mistake would block or read forever.
  try {
    if (!(await stat(file)).isFile()) throw new KeyFileError(TEXTS.keyFileNotAFile(file));
  } catch (error) {
    throw asKeyFileError(file, error);
  }
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw asKeyFileError(file, error);
  }
  try {
    // The mode and size of the file actually opened, not of whatever the path named a moment ago.
    const info = await handle.stat();
    if (!info.isFile()) throw new KeyFileError(TEXTS.keyFileNotAFile(file));
    if (platform !== 'win32' && (info.mode & 0o077) !== 0) {
      throw new KeyFileError(TEXTS.keyFileOpen(file, (info.mode & 0o777).toString(8).padStart(3, '0')));
    }
    // Whoever owns the file may open it up again, or swap the key for another team's.
    if (!ownerTrusted(info.uid, { platform, ...(options.uid !== undefined ? { uid: options.uid } : {}) })) {
      const uid = options.uid ?? process.getuid?.() ?? 0;
      throw new KeyFileError(TEXTS.keyFileUnsafe(file, info.uid, uid === 0));
    }
    const readAcl = options.windowsAcl ?? (process.platform === 'win32' ? windowsAcl : undefined);
    if (platform === 'win32' && readAcl) {
      const acl = await readAcl(file);
      if (acl && (!acl.ownerTrusted || acl.untrustedWriters.length > 0))
        throw new KeyFileError(TEXTS.keyFileUnsafeWindows(file, acl.owner, acl.untrustedWriters));
    }
    if (info.size > MAX_KEY_FILE_BYTES) throw new KeyFileError(TEXTS.keyFileTooLarge(file));
    const key = decode(await handle.readFile()).trim();
    if (key === '') throw new KeyFileError(TEXTS.keyFileEmpty(file));
    return key;
  } catch (error) {
    throw asKeyFileError(file, error);
  } finally {
    await handle.close();
  }
}

/**
 * The file's text: UTF-8 (a BOM is dropped by `trim`), or UTF-16LE when it starts with that BOM,
 * which is what `echo <clave> > archivo` writes in Windows PowerShell 5.
 */
function decode(bytes: Buffer): string {
  return bytes[0] === 0xff && bytes[1] === 0xfe ? bytes.toString('utf16le', 2) : bytes.toString('utf8');
}

/** A `KeyFileError` as it is, or a file-system error turned into one Spanish line. */
function asKeyFileError(file: string, error: unknown): KeyFileError {
  if (error instanceof KeyFileError) return error;
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new KeyFileError(TEXTS.keyFileMissing(file));
  if (code === 'EACCES' || code === 'EPERM') return new KeyFileError(TEXTS.keyFileDenied(file));
  if (code === 'EISDIR') return new KeyFileError(TEXTS.keyFileNotAFile(file));
  // Only the error code: a system message could be long or English; the content is never read here.
  return new KeyFileError(TEXTS.keyFileUnreadable(file, code ?? 'error del sistema'));
}
