import closeWithGrace from 'close-with-grace';
import { loadConfig, withJwtSecret } from './config.js';
import { buildApp, WEB_DIST_DIR } from './app.js';
import { DatabaseUnreachableError, openDatabase, safeUrl } from './db/database.js';
import {
  findServerBinary,
  NO_DATABASE_SERVER,
  startEmbeddedDatabase,
  tcpAnswers,
  type EmbeddedDatabase,
} from './db/embedded-database.js';
import { ensureFirstAdmin } from './db/first-admin.js';
import { serverLoggerOptions } from './lib/log-serializers.js';

/** The embedded database this process started, if any (stopped however the process ends). */
let embedded: EmbeddedDatabase | null = null;

/**
 * Entry point of `npm start`: opens (creates, migrates) the database, creates the first
 * administrator when none exists, listens, and closes gracefully on SIGINT/SIGTERM (close-with-grace).
 */
async function main(): Promise<void> {
  let config = withJwtSecret(loadConfig(process.env, { webDistDir: WEB_DIST_DIR }));
  // docs/design.md section 7: no DATABASE_URL and nothing on the default address, so a private
  // server of the machine's own MariaDB/MySQL, data in DATA_DIR/mysql, stopped with this process.
  if (!config.databaseUrlGiven && !(await defaultAddressAnswers(config.databaseUrl))) {
    const binary = findServerBinary();
    if (!binary) {
      console.error(NO_DATABASE_SERVER);
      process.exit(1);
    }
    try {
      embedded = await startEmbeddedDatabase(config.dataDir, binary);
    } catch (err) {
      console.error((err as Error).message);
      process.exit(1);
    }
    console.log(
      embedded.reused
        ? `Base de datos integrada: la de ${embedded.dir} ya estaba en marcha (un cierre interrumpido); se usa y se deja en marcha.`
        : `Base de datos integrada: ${binary} con los datos en ${embedded.dir}, sin puerto de red (se detiene con el servidor; para usar otra, indique DATABASE_URL).`,
    );
    if (embedded.warning) console.warn(embedded.warning);
    config = { ...config, databaseUrl: embedded.url };
  }
  let orm;
  try {
    orm = await openDatabase(config.databaseUrl);
  } catch (err) {
    await embedded?.stop();
    if (err instanceof DatabaseUnreachableError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  await ensureFirstAdmin(orm.em.fork(), config.adminUsername, config.adminPassword, (line) =>
    console.log(line),
  );
  const app = await buildApp({
    config,
    orm,
    logger: {
      ...serverLoggerOptions(config.logLevel),
      ...(process.stdout.isTTY ? { transport: { target: 'pino-pretty' } } : {}),
    },
  });

  // SIGINT/SIGTERM (Ctrl+C, systemd, `docker restart`) close gracefully: pushes gathered so far leave,
  // sockets are closed at the transport level so every screen reconnects by itself to the next
  // process (see socket.ts), the database pool closes. A close that hangs (a frozen database) is cut
  // after 10 s, and an uncaught error exits the same way rather than serving half-broken.
  closeWithGrace(
    { delay: 10_000, logger: { error: (m: string) => app.log.error(m) } },
    async ({ signal, err }) => {
      if (err) app.log.error({ err }, 'error no controlado: cerrando');
      else app.log.info(`${signal}: cerrando`);
      await app.close();
      await embedded?.stop();
    },
  );

  await app.listen({ port: config.port, host: '0.0.0.0' });
  app.log.info(
    `Concurso listo en http://localhost:${config.port} (base de datos ${safeUrl(config.databaseUrl)})`,
  );
}

/** Whether a server answers on the host and port of `databaseUrl` (the default address when unset). */
function defaultAddressAnswers(databaseUrl: string): Promise<boolean> {
  const url = new URL(databaseUrl);
  return tcpAnswers(url.hostname, Number(url.port || 3306));
}

main().catch(async (err) => {
  console.error(err instanceof Error ? err.message : err);
  await embedded?.stop();
  process.exit(1);
});
