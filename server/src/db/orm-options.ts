import { defineConfig } from '@mikro-orm/mysql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from './entities.js';
import { migrationsList } from '../../../migrations/index.js';
import { DB_ACQUIRE_TIMEOUT_MS, DB_CONNECT_TIMEOUT_MS, limitConnection } from './timeouts.js';

/**
 * MikroORM options for one database URL (docs/design.md sections 2 and 3): utf8mb4 with
 * `utf8mb4_unicode_ci`, UTC, time limits on connections and queries (`timeouts.ts`), migrations from `migrations/` listed statically so they run the same
 * under tsx and in tests.
 */
export function ormOptions(databaseUrl: string) {
  // A Unix socket given as `?socketPath=` (the embedded database, embedded-database.ts): mysql2 reads it
  // from a URL itself, MikroORM only from the driver's options.
  const url = new URL(databaseUrl);
  const socketPath = url.searchParams.get('socketPath');
  url.search = '';
  return defineConfig({
    clientUrl: url.toString(),
    entities,
    extensions: [Migrator],
    charset: 'utf8mb4',
    collate: 'utf8mb4_unicode_ci',
    timezone: '+00:00',
    forceUtcTimezone: true,
    allowGlobalContext: false,
    ensureDatabase: false,
    // Time limits (a frozen database answers 503 within seconds instead of hanging).
    pool: { min: 0, max: 20, afterCreate: limitConnection },
    driverOptions: {
      connection: { connectTimeout: DB_CONNECT_TIMEOUT_MS, ...(socketPath ? { socketPath } : {}) },
      acquireConnectionTimeout: DB_ACQUIRE_TIMEOUT_MS,
    },
    migrations: {
      tableName: 'mikro_orm_migrations',
      path: 'migrations',
      pathTs: 'migrations',
      migrationsList,
      emit: 'ts',
      snapshot: false,
      // MySQL commits DDL implicitly, so a wrapping transaction would only warn; each migration is idempotent by name.
      transactional: false,
      silent: true,
    },
  });
}
