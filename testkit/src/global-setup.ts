import mysql from 'mysql2/promise';
import { testServerUrl } from './environment.js';
import { ensureServerBuilt } from './server-build.js';

/**
 * Vitest's global setup of the server and browser tests (vitest.config.ts), run once before any
 * file: checks that MySQL/MariaDB answers at `TEST_DATABASE_URL` (default the local root account),
 * and fails with one line saying what to run when it does not (each test file then makes and drops
 * its own throwaway database); then brings the compiled server (server/dist) up to date, so every
 * test that spawns a server runs what `npm start` runs, built once rather than by each file.
 */
export default async function setup(): Promise<void> {
  try {
    const conn = await mysql.createConnection({ uri: testServerUrl, connectTimeout: 5_000 });
    await conn.end();
  } catch (err) {
    throw new Error(
      `MySQL/MariaDB no responde en ${testServerUrl} (${(err as Error).message}). ` +
        'Inícielo (p. ej. `start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd`) o defina TEST_DATABASE_URL.',
    );
  }
  await ensureServerBuilt();
}
