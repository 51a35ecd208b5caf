import { afterAll, describe, expect, it } from 'vitest';
import mysql from 'mysql2/promise';
import { databaseName, dropDatabase, testServerUrl, throwawayDatabaseUrl } from '@concurso/testkit';
import { createMigratedDatabase, saveDatabaseSnapshot } from '@concurso/testkit/database-snapshot';
import { openDatabase } from '../src/db/database.js';

/**
 * Every table of `database`: its DDL and its rows (ordered by every column), without date and time
 * columns (when a migration ran, not what it made), in name order.
 */
async function describeDatabase(conn: mysql.Connection, database: string): Promise<string[]> {
  const [columns] = (await conn.query(
    `SELECT table_name AS t, column_name AS c, data_type AS type FROM information_schema.columns
      WHERE table_schema = ? ORDER BY table_name, ordinal_position`,
    [database],
  )) as unknown as [Array<{ t: string; c: string; type: string }>];
  const tables = [...new Set(columns.map((col) => col.t))];
  const out: string[] = [];
  for (const table of tables) {
    const [created] = (await conn.query(`SHOW CREATE TABLE \`${database}\`.\`${table}\``)) as unknown as [
      Array<Record<string, string>>,
    ];
    const kept = columns
      .filter((col) => col.t === table && !['date', 'datetime', 'timestamp', 'time'].includes(col.type))
      .map((col) => `\`${col.c}\``)
      .join(', ');
    const [rows] = (await conn.query({
      sql: `SELECT ${kept} FROM \`${database}\`.\`${table}\` ORDER BY ${kept}`,
      rowsAsArray: true,
    })) as unknown as [unknown[][]];
    out.push(`${created[0]!['Create Table']}\n${JSON.stringify(rows)}`);
  }
  return out;
}

// The test servers' throwaway databases are made from a saved script (testkit's database-snapshot.ts),
// not by the migrations: the script must give exactly what the migrations give.
describe('a throwaway database made from the saved script', () => {
  const migrated = throwawayDatabaseUrl();
  const copied = throwawayDatabaseUrl();
  afterAll(async () => {
    await dropDatabase(migrated);
    await dropDatabase(copied);
  });

  it('has the tables, keys, seeded rows and recorded migrations of a migrated one', async () => {
    const orm = await openDatabase(migrated);
    await orm.close();
    await saveDatabaseSnapshot(migrated);
    expect(await createMigratedDatabase(copied)).toBe(true);
    // Nothing is pending on the copy: the migrator finds every migration recorded.
    const copy = await openDatabase(copied);
    const pending = await copy.getMigrator().getPendingMigrations();
    await copy.close();
    expect(pending).toEqual([]);

    const conn = await mysql.createConnection({ uri: testServerUrl });
    try {
      const expected = await describeDatabase(conn, databaseName(migrated));
      expect(expected.length).toBeGreaterThan(0);
      expect(await describeDatabase(conn, databaseName(copied))).toEqual(expected);
    } finally {
      await conn.end();
    }
  });
});
