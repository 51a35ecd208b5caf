import closeWithGrace from 'close-with-grace';
import { loadConfig, withJwtSecret } from './config.js';
import { buildApp, WEB_DIST_DIR } from './app.js';
import { DatabaseUnreachableError, openDatabase, safeUrl } from './db/database.js';
import { ensureFirstAdmin } from './db/first-admin.js';
import { serverLoggerOptions } from './lib/log-serializers.js';

/**
 * Entry point of `npm start`: opens (creates, migrates) the database, creates the first
 * administrator when none exists, listens, and closes gracefully on SIGINT/SIGTERM (close-with-grace).
 */
async function main(): Promise<void> {
  const config = withJwtSecret(loadConfig(process.env, { webDistDir: WEB_DIST_DIR }));
  let orm;
  try {
    orm = await openDatabase(config.databaseUrl);
  } catch (err) {
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
    },
  );

  await app.listen({ port: config.port, host: '0.0.0.0' });
  app.log.info(
    `Concurso listo en http://localhost:${config.port} (base de datos ${safeUrl(config.databaseUrl)})`,
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
