import { createClient } from 'redis';
import type { FastifyBaseLogger } from 'fastify';

/** The Redis client type the push channel uses. */
export type RedisClient = ReturnType<typeof createClient>;

/** Longest a Redis command may wait for its answer (ms); the adapter's blocking read waits less. */
const REDIS_COMMAND_TIMEOUT_MS = 3_000;
/** How long the adapter's `XREAD` blocks (ms): below the command timeout, or every read would time out. */
export const REDIS_STREAM_BLOCK_MS = 1_000;

/** What the push channel learns about its Redis link. */
export interface RedisLinkEvents {
  /** The link came back after being down: pushes relayed meanwhile were lost (see socket.ts). */
  onRecovered: () => void;
}

/**
 * Opens the Redis link of the push channel (docs/design.md section 2) without waiting for it:
 * a server starts and serves while Redis is down, and joins the fan-out when it comes.
 *
 * - Reconnects forever with a backoff up to 2 s; logs only changes of state, never every retry.
 * - `disableOfflineQueue`: while the link is down a command fails at once instead of queueing. The
 *   Socket.IO cluster adapter awaits its publish before emitting to this process's own sockets, so a
 *   queued publish would hold every local broadcast for the command timeout.
 * - The client handed to the adapter never rejects `publish`: @socket.io/redis-streams-adapter 0.3
 *   publishes its ephemeral messages (`serverSideEmit`) without handling a failure, and an unhandled
 *   rejection ends the process (close-with-grace). A failed relay is logged at debug level; the
 *   screens it would have reached refetch their snapshot when the link comes back (`onRecovered`).
 *
 * Answers the client to give the adapter and to query, and `quit()` for the app's close.
 */
export function openRedisLink(
  url: string,
  log: FastifyBaseLogger,
  events: RedisLinkEvents,
): { client: RedisClient; isReady: () => boolean; quit: () => Promise<void> } {
  const client: RedisClient = createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: REDIS_COMMAND_TIMEOUT_MS },
    socket: {
      connectTimeout: REDIS_COMMAND_TIMEOUT_MS,
      reconnectStrategy: (retries) => Math.min(retries * 100, 2_000),
    },
  });
  let healthy = true;
  let wasDown = false;
  client.on('error', (err) => {
    if (healthy) log.error({ err }, 'redis unavailable; retrying');
    healthy = false;
    wasDown = true;
  });
  client.on('ready', () => {
    if (!healthy) log.info('redis available again');
    healthy = true;
    if (wasDown) {
      wasDown = false;
      events.onRecovered();
    }
  });
  // Not awaited: the first connection is retried like any reconnection.
  client.connect().catch((err: unknown) => log.error({ err }, 'redis connect failed'));

  const safe = new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === 'publish') {
        return (...args: Parameters<RedisClient['publish']>) =>
          target.publish(...args).catch((err: unknown) => {
            log.debug({ err }, 'redis publish failed');
            return 0;
          });
      }
      if (prop === 'duplicate') {
        // The adapter's stream readers and subscriber are duplicates. They keep the offline queue:
        // its blocking XREAD loop retries at once on failure, and a command that failed at once
        // would spin it at 100 % CPU while Redis is away; queued, it waits for the command timeout.
        return () => target.duplicate({ disableOfflineQueue: false });
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      // node-redis keeps state in private fields: its methods must run on the real client.
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });

  return {
    client: safe,
    isReady: () => client.isReady,
    quit: async () => {
      // close() waits for pending commands, which never come back while the link is down.
      if (client.isReady) await client.close().catch(() => undefined);
      else client.destroy();
    },
  };
}
