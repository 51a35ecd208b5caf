import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The folder of the capture images: `DATA_DIR/captures`. */
export const capturesDir = (dataDir: string): string => path.join(dataDir, 'captures');

/** SHA-256 of `bytes`, 64 lower-case hex digits. */
export const sha256Of = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Where the image of hash `sha256` lives: `captures/<first two digits>/<sha256>.jpg` (256 folders, so
 * none grows past a few thousand files). `sha256` comes from our own hash, never from a request.
 */
export const captureFile = (dir: string, sha256: string): string =>
  path.join(dir, sha256.slice(0, 2), `${sha256}.jpg`);

/**
 * Writes `bytes` as the image of `sha256` unless it is already there (same hash, same bytes): through a
 * temporary file and a rename, so a reader never sees half an image.
 */
export async function storeCaptureFile(dir: string, sha256: string, bytes: Buffer): Promise<void> {
  const file = captureFile(dir, sha256);
  if (await exists(file)) return;
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, file);
}

/** Deletes the image of `sha256` (no row names it any more); missing already is fine. */
export async function removeCaptureFile(dir: string, sha256: string): Promise<void> {
  await rm(captureFile(dir, sha256), { force: true });
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
