import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './environment.js';

/**
 * The compiled server, as `npm start` runs it (tests and measurements that spawn a server
 * exercise what production runs, not the TypeScript sources under tsx).
 */

/** `server/dist/server.js`, absolute: run it with `node`. */
export const SERVER_ENTRY = path.join(repoRoot, 'server', 'dist', 'server.js');

let building: Promise<void> | undefined;

/**
 * Brings server/dist up to date with the sources (`node scripts/build.mjs server`: about 0.3 s when
 * something changed, a date check otherwise), once per process. Vitest's global setup calls it
 * before any test file; a spawning helper calls it again for tools run outside Vitest.
 * @throws with esbuild's messages when the sources do not compile.
 */
export function ensureServerBuilt(): Promise<void> {
  building ??= promisify(execFile)(
    process.execPath,
    [path.join(repoRoot, 'scripts', 'build.mjs'), 'server'],
    {
      cwd: repoRoot,
    },
  ).then(
    () => undefined,
    (err: Error & { stdout?: string; stderr?: string }) => {
      building = undefined;
      throw new Error(`the server does not build:\n${err.stderr || err.stdout || err.message}`);
    },
  );
  return building;
}
