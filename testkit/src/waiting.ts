import { createServer } from 'node:net';

/** Ports, polling and time limits: small helpers every test and measurement uses. */

/** A free loopback TCP port (for a server process or service a test starts itself). */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Whether `port` can be bound on every interface (the server listens on 0.0.0.0). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '0.0.0.0', () => probe.close(() => resolve(true)));
  });
}

/**
 * `count` consecutive ports free on every interface, from a random start in 20000..39999 (servers
 * behind one address, numbered in a row).
 * @throws after 200 tries without such a run.
 */
export async function consecutiveFreePorts(count: number): Promise<number[]> {
  for (let tries = 0; tries < 200; tries++) {
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    const ports = Array.from({ length: count }, (_, i) => base + i);
    let free = true;
    for (const p of ports) if (!(await portFree(p))) free = false;
    if (free) return ports;
  }
  throw new Error(`no ${count} consecutive free ports`);
}

/**
 * Polls `check` every 100 ms until it answers true, for at most `ms` (ms); answers whether it did.
 * `check` may answer at once or through a promise.
 */
export async function eventually(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Resolves with `promise`, or rejects after `ms` (ms) with `nothing in <ms> ms`. */
export const within = <T>(ms: number, promise: Promise<T>): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`nothing in ${ms} ms`)), ms)),
  ]);
