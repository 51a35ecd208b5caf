/**
 * A Windows helper the single executable carries as an asset (`npm run agent:build`), written into
 * the agent's data folder when missing or different: that folder is only SYSTEM's and the
 * administrators', so a contestant cannot swap the program the agent runs as SYSTEM.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes the asset `name` into `dataDir` and answers its path; null outside the single executable
 * (no assets).
 * @throws the file system's error when `dataDir` cannot be written.
 */
export async function writeEmbeddedHelper(dataDir: string, name: string): Promise<string | null> {
  const sea = await import('node:sea');
  if (!sea.isSea()) return null;
  const bytes = Buffer.from(sea.getAsset(name));
  const helper = path.join(dataDir, name);
  const current = await readFile(helper).catch(() => null);
  if (!current?.equals(bytes)) {
    await mkdir(dataDir, { recursive: true });
    await writeFile(helper, bytes);
  }
  return helper;
}
