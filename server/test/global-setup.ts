import mysql from 'mysql2/promise';

/**
 * Runs once before the server and browser tests: checks that MySQL/MariaDB answers at
 * `TEST_DATABASE_URL` (default the local root account), and fails with one line saying what to
 * run when it does not. Each test file then makes and drops its own throwaway database.
 */
export default async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/';
  try {
    const conn = await mysql.createConnection({ uri: url, connectTimeout: 5_000 });
    await conn.end();
  } catch (err) {
    throw new Error(
      `MySQL/MariaDB no responde en ${url} (${(err as Error).message}). ` +
        'Inícielo (p. ej. `start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd`) o defina TEST_DATABASE_URL.',
    );
  }
}
