import type { MikroORM } from '@mikro-orm/mysql';
import { loadConfig } from '../config.js';
import { DatabaseUnreachableError, openDatabase } from './database.js';
import { ensureFirstAdmin } from './first-admin.js';
import { seedDemo } from './demo-seed.js';

/**
 * Entry point of `npm run seed:demo` (docs/design.md section 7): opens (creates, migrates) the configured
 * database, creates the first administrator when none exists (as `npm start` does), loads the demo
 * contest once and prints one Spanish line saying what it did. Exits 1 with one line, never a
 * stack trace, when MySQL cannot be reached or the load fails.
 */
async function main(): Promise<number> {
  const config = loadConfig(process.env);
  let orm: MikroORM;
  try {
    orm = await openDatabase(config.databaseUrl);
  } catch (err) {
    console.error(
      err instanceof DatabaseUnreachableError
        ? err.message
        : `No se pudo abrir la base de datos: ${message(err)}`,
    );
    return 1;
  }
  try {
    await ensureFirstAdmin(orm.em.fork(), config.adminUsername, config.adminPassword, (line) =>
      console.log(line),
    );
    const result = await seedDemo(orm.em.fork());
    if (!result.created) {
      console.log('Los datos de demostración ya estaban cargados; no se cambió nada.');
    } else {
      const judge = result.judge
        ? ` Juez: ${result.judge.username} / ${result.judge.password}`
        : ' El usuario juez ya existía; se conservó su contraseña.';
      console.log(
        `Datos de demostración cargados: concurso ${result.calendar}, ${result.teams} equipos, ` +
          `${result.processes} procesos bloqueados.${judge}`,
      );
    }
    return 0;
  } catch (err) {
    console.error(`No se pudieron cargar los datos de demostración: ${message(err)}`);
    return 1;
  } finally {
    await orm.close(true).catch(() => undefined);
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(message(err));
    process.exit(1);
  },
);
