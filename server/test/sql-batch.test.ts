import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mysql from 'mysql2/promise';
import { dropDatabase, serverPart, throwawayDatabaseUrl } from '@concurso/testkit/environment';
import { createSqlPool, sqlBatchTransaction } from '../src/db/sql.js';

/*
 * The bare pool of the attempts group commit (db/sql.ts): several statements of one
 * transaction in one round trip, on READ COMMITTED sessions, and nothing of a failed batch kept.
 */
describe('sqlBatchTransaction (db/sql.ts)', () => {
  const url = throwawayDatabaseUrl('concurso_sqlbatch');
  let pool: mysql.Pool;

  beforeAll(async () => {
    const admin = await mysql.createConnection({ uri: serverPart(url) });
    const name = new URL(url).pathname.slice(1);
    await admin.query(`create database \`${name}\``);
    await admin.query(
      `create table \`${name}\`.items (id int primary key, label varchar(20) not null unique) engine = InnoDB`,
    );
    await admin.end();
    pool = createSqlPool(url, 2);
  });
  afterAll(async () => {
    await pool?.end();
    await dropDatabase(url);
  });

  const labels = async () =>
    ((await pool.query('select label from items order by id'))[0] as Array<{ label: string }>).map(
      (row) => row.label,
    );

  it('answers each statement of a batch in order, one or several, and commits with the last', async () => {
    const answers = await sqlBatchTransaction(pool, async (send) => {
      const [isolation] = await send([{ sql: 'select @@session.tx_isolation as level', params: [] }]);
      const [inserted, read] = await send(
        [
          { sql: 'insert into items (id, label) values (?, ?), (?, ?)', params: [1, 'uno', 2, 'dos'] },
          { sql: 'select label from items where id in (?, ?) order by id', params: [1, 2] },
        ],
        { commit: true },
      );
      return { isolation, inserted, read };
    });
    expect(answers.isolation).toEqual([{ level: 'READ-COMMITTED' }]);
    expect(answers.inserted).toMatchObject({ affectedRows: 2 });
    expect(answers.read).toEqual([{ label: 'uno' }, { label: 'dos' }]);
    expect(await labels()).toEqual(['uno', 'dos']);
  });

  it('keeps nothing of a transaction whose batch fails midway, and the connection serves the next one', async () => {
    await expect(
      sqlBatchTransaction(pool, async (send) => {
        await send([{ sql: 'insert into items (id, label) values (?, ?)', params: [3, 'tres'] }]);
        // The second statement meets the unique label: the COMMIT after it never runs.
        await send(
          [
            { sql: 'insert into items (id, label) values (?, ?)', params: [4, 'cuatro'] },
            { sql: 'insert into items (id, label) values (?, ?)', params: [5, 'uno'] },
          ],
          { commit: true },
        );
      }),
    ).rejects.toMatchObject({ code: 'ER_DUP_ENTRY' });
    expect(await labels()).toEqual(['uno', 'dos']);
    // Both pooled connections are fine afterwards.
    await Promise.all(
      [6, 7].map((id) =>
        sqlBatchTransaction(pool, (send) =>
          send([{ sql: 'insert into items (id, label) values (?, ?)', params: [id, `n${id}`] }]),
        ),
      ),
    );
    expect(await labels()).toEqual(['uno', 'dos', 'n6', 'n7']);
  });
});
