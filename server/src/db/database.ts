import { MikroORM } from '@mikro-orm/mysql';
import mysql from 'mysql2/promise';
import { ormOptions } from './orm-options.js';
import { DB_QUERY_TIMEOUT_MS, queryLimit } from './timeouts.js';

/** Raised when MySQL cannot be reached at start; its message is one line saying what to do. */
export class DatabaseUnreachableError extends Error {
  constructor(url: string, cause: unknown) {
    const where = safeUrl(url);
    super(
      `No se pudo conectar a MySQL en ${where} (${(cause as Error)?.message ?? cause}). ` +
        'Inicie MySQL/MariaDB o ajuste DATABASE_URL.',
    );
    this.name = 'DatabaseUnreachableError';
  }
}

/** The URL without its password, for messages and logs. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(DATABASE_URL no válida)';
  }
}

/** Splits `mysql://…/name` into the server URL and the database name. */
function splitUrl(url: string): { serverUrl: string; database: string } {
  const u = new URL(url);
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]+$/.test(database)) {
    throw new Error(`Nombre de base de datos no válido en DATABASE_URL: '${database}'`);
  }
  u.pathname = '/';
  return { serverUrl: u.toString(), database };
}

/**
 * Creates the database when missing (utf8mb4, `utf8mb4_unicode_ci`), then runs the pending
 * migrations while holding a MySQL named lock, so several processes starting together migrate once
 * (docs/design.md section 3). Returns the initialised ORM.
 * @throws DatabaseUnreachableError when the server does not answer.
 */
export async function openDatabase(databaseUrl: string): Promise<MikroORM> {
  const { serverUrl, database } = splitUrl(databaseUrl);
  let conn: mysql.Connection;
  try {
    conn = await mysql.createConnection({ uri: serverUrl, connectTimeout: 5_000 });
  } catch (err) {
    throw new DatabaseUnreachableError(databaseUrl, err);
  }
  try {
    await conn.query(
      `CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
    const [rows] = await conn.query('SELECT GET_LOCK(?, 120) AS got', [`${database}:migrations`]);
    if ((rows as Array<{ got: number }>)[0]?.got !== 1) {
      throw new Error('No se obtuvo el candado de migraciones en 120 s.');
    }
    const orm = await MikroORM.init(ormOptions(databaseUrl));
    // A migration may rewrite a big table: no query limit while they run.
    queryLimit.ms = 0;
    try {
      await orm.getMigrator().up();
    } catch (err) {
      await orm.close();
      throw err;
    } finally {
      queryLimit.ms = DB_QUERY_TIMEOUT_MS;
    }
    return orm;
  } finally {
    await conn.query('SELECT RELEASE_LOCK(?)', [`${database}:migrations`]).catch(() => undefined);
    await conn.end().catch(() => undefined);
  }
}
