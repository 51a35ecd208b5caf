import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';

/**
 * Where tests and measurements find the repository and the shared services, and their throwaway
 * databases. Loads no server code: a process-level tool (bench, a spawned server) may import it.
 */

/** The repository root (absolute), whatever folder a test or tool was started from. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `mysql://host:port/` of a MySQL URL, whatever database it names. */
export function serverPart(url: string): string {
  return url.replace(/\/[^/]*$/, '/');
}

/**
 * The test MySQL/MariaDB without a database: `TEST_DATABASE_URL` (its server part) or the local root
 * account, `mysql://root@127.0.0.1:3306/` (scripts/test-env.sh starts it).
 */
export const testServerUrl = serverPart(process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/');

/** The shared test Redis: `TEST_REDIS_URL` or `redis://127.0.0.1:6379`. */
export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A URL for a new throwaway database on the test server, `<prefix>_<10 hex>` (default prefix
 * `concurso_test`). The server creates it at start; `dropDatabase` removes it.
 */
export function throwawayDatabaseUrl(prefix = 'concurso_test', server = testServerUrl): string {
  return `${serverPart(server)}${prefix}_${randomBytes(5).toString('hex')}`;
}

/** The database a MySQL URL names (its last path segment). */
export function databaseName(url: string): string {
  return new URL(url).pathname.slice(1);
}

/** Drops the database `databaseUrl` names (no error when it is missing). */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const conn = await mysql.createConnection({ uri: serverPart(databaseUrl) });
  try {
    await conn.query(`drop database if exists \`${databaseName(databaseUrl).replace(/`/g, '')}\``);
  } finally {
    await conn.end();
  }
}

/**
 * A path the user gave on the command line, resolved against the folder the command was typed in:
 * npm runs a workspace's script in the workspace's folder but sets `INIT_CWD` to where `npm run`
 * was typed, so `npm run bench -- --out bench/out/a.json` means the same from the root as before.
 */
export function userPath(given: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
}
