import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { migrationsList } from '../../migrations/index.js';
import { databaseName, repoRoot, serverPart } from './environment.js';

/**
 * A migrated database as one SQL script, so a test server's throwaway database is made by running the
 * script (about 0.3 s: every table's `SHOW CREATE TABLE` and the rows the migrations seed) instead of
 * every migration (about 0.75 s). MySQL/MariaDB has no `CREATE DATABASE … TEMPLATE`.
 *
 * The first test server of a run whose script is missing migrates as before and saves its database
 * here right after (before its app touches it). The script's name carries a digest of the migrations
 * and of the ORM's version (it owns the `mikro_orm_migrations` table), so a new or edited
 * migration makes a new script and the old one is never used. The script records every
 * executed migration, so the server's own `openDatabase` finds nothing pending and still checks it.
 */

const MIGRATIONS_DIR = path.join(repoRoot, 'migrations');
const SNAPSHOT_DIR = path.join(repoRoot, 'node_modules', '.cache', 'concurso-test');

/**
 * sha256 (first 16 hex) of the migrations: every file of `migrations/` and the code of each migration
 * class this process loaded (computed when this module loads, with them, so a file edited later in
 * the run does not name a script of the code already loaded), and the ORM's version.
 */
function migrationsDigest(): string {
  const hash = createHash('sha256');
  for (const migration of migrationsList) {
    hash.update(`${migration.name}\0${migration.class.toString()}\0`);
  }
  for (const name of readdirSync(MIGRATIONS_DIR).sort()) {
    hash
      .update(`${name}\0`)
      .update(readFileSync(path.join(MIGRATIONS_DIR, name)))
      .update('\0');
  }
  for (const pkg of ['@mikro-orm/core', '@mikro-orm/migrations']) {
    try {
      hash.update(readFileSync(path.join(repoRoot, 'node_modules', pkg, 'package.json')));
    } catch {
      hash.update(`${pkg}: missing`);
    }
  }
  return hash.digest('hex').slice(0, 16);
}

const DIGEST = migrationsDigest();

/** Where the script of the current migrations is (or will be) kept. */
export function snapshotPath(): string {
  return path.join(SNAPSHOT_DIR, `schema-${DIGEST}.sql`);
}

let script: string | null | undefined;

/** The current script, read once per process; null while there is none. */
function currentScript(): string | null {
  if (script) return script;
  try {
    script = readFileSync(snapshotPath(), 'utf8');
  } catch {
    script = null;
  }
  return script;
}

/**
 * Creates the database `databaseUrl` names (utf8mb4, `utf8mb4_unicode_ci`, as `openDatabase` would)
 * already migrated, from the saved script. Returns false, creating nothing, when there is no script
 * for the current migrations yet: the caller migrates (and then calls `saveDatabaseSnapshot`).
 */
export async function createMigratedDatabase(databaseUrl: string): Promise<boolean> {
  const sql = currentScript();
  if (!sql) return false;
  const name = databaseName(databaseUrl);
  const conn = await mysql.createConnection({ uri: serverPart(databaseUrl), multipleStatements: true });
  try {
    await conn.query(
      `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci; USE \`${name}\`; ` +
        `SET FOREIGN_KEY_CHECKS = 0; ${sql} SET FOREIGN_KEY_CHECKS = 1;`,
    );
  } finally {
    await conn.end();
  }
  return true;
}

/**
 * Saves the freshly migrated database `databaseUrl` names as the script of the current migrations
 * (when there is none yet): its tables' DDL and their rows. Saves nothing when the database holds a
 * view, trigger or routine (the script carries tables only): servers then keep migrating. Written to a
 * temporary name and renamed, so a concurrent reader sees the whole script or none.
 */
export async function saveDatabaseSnapshot(databaseUrl: string): Promise<void> {
  if (currentScript()) return;
  const conn = await mysql.createConnection({
    uri: databaseUrl,
    // Values come back as the text MySQL would parse again: dates unshifted by time zones, big
    // numbers exact, JSON as written.
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    typeCast: (field, next) => (field.type === 'JSON' ? field.string('utf8') : next()),
  });
  try {
    const [others] = (await conn.query(
      `SELECT (SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type <> 'BASE TABLE')
            + (SELECT COUNT(*) FROM information_schema.triggers WHERE trigger_schema = DATABASE())
            + (SELECT COUNT(*) FROM information_schema.routines WHERE routine_schema = DATABASE()) AS n`,
    )) as unknown as [Array<{ n: number | string }>];
    if (Number(others[0]?.n) !== 0) return;
    const [tables] = (await conn.query(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE' ORDER BY table_name`,
    )) as unknown as [Array<{ name: string }>];
    const ddl: string[] = [];
    const rows: string[] = [];
    for (const { name } of tables) {
      const [created] = (await conn.query(`SHOW CREATE TABLE \`${name}\``)) as unknown as [
        Array<Record<string, string>>,
      ];
      ddl.push(`${created[0]!['Create Table']};`);
      const [data] = (await conn.query({
        sql: `SELECT * FROM \`${name}\``,
        rowsAsArray: true,
      })) as unknown as [unknown[][]];
      if (data.length > 0) {
        const values = data.map((row) => `(${row.map((v) => conn.escape(v)).join(', ')})`);
        rows.push(`INSERT INTO \`${name}\` VALUES\n${values.join(',\n')};`);
      }
    }
    const text = `-- Made by testkit/src/database-snapshot.ts from migrations/ (${DIGEST}).\n${[...ddl, ...rows].join('\n')}\n`;
    mkdirSync(SNAPSHOT_DIR, { recursive: true });
    const target = snapshotPath();
    const temporary = `${target}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temporary, text);
    renameSync(temporary, target);
    script = text;
    // Scripts of other migrations not written for an hour are stale (a run of other code, e.g. another
    // branch, keeps its own meanwhile).
    for (const other of readdirSync(SNAPSHOT_DIR)) {
      const file = path.join(SNAPSHOT_DIR, other);
      if (!other.startsWith('schema-') || file === target) continue;
      try {
        if (Date.now() - statSync(file).mtimeMs > 3_600_000) rmSync(file, { force: true });
      } catch {
        // removed meanwhile by another process
      }
    }
  } finally {
    await conn.end();
  }
}
