import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReferenceKind } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/mysql';
import { databaseName, dropDatabase, throwawayDatabaseUrl } from '@concurso/testkit';
import { openDatabase } from './database.js';

// The migrations own the schema (docs/design.md section 3) and the entities describe it to the ORM: if an
// entity (or the columns they share, base-entity.ts) drifted from the migrated tables, queries
// would name columns that do not exist, or miss one. (The schema generator's own diff is not used: on
// MariaDB it reports nullable varchar columns and foreign keys covered by a unique index as changes.)
describe('entities and migrations', () => {
  const url = throwawayDatabaseUrl('concurso_entities');
  let orm: MikroORM;

  beforeAll(async () => {
    orm = await openDatabase(url);
  });
  afterAll(async () => {
    await orm?.close(true);
    await dropDatabase(url);
  });

  it('name the same tables and columns, with the same nullability', async () => {
    const columns = await orm.em
      .getConnection()
      .execute<Array<{ table_name: string; column_name: string; is_nullable: 'YES' | 'NO' }>>(
        `select table_name as table_name, column_name as column_name, is_nullable as is_nullable
         from information_schema.columns where table_schema = ? and table_name <> 'mikro_orm_migrations'`,
        [databaseName(url)],
      );
    const migrated = columns.map(
      (c) => `${c.table_name}.${c.column_name} ${c.is_nullable === 'YES' ? 'null' : 'not null'}`,
    );

    const described: string[] = [];
    for (const meta of Object.values(orm.getMetadata().getAll())) {
      for (const prop of meta.props) {
        if (prop.kind !== ReferenceKind.SCALAR && prop.kind !== ReferenceKind.MANY_TO_ONE) continue;
        for (const field of prop.fieldNames) {
          described.push(`${meta.tableName}.${field} ${prop.nullable ? 'null' : 'not null'}`);
        }
      }
    }

    expect(described.length).toBeGreaterThan(50);
    expect(described.sort()).toEqual(migrated.sort());
  });
});
