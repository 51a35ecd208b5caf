import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@concurso/shared';
import { AgentClient } from '../src/client.js';
import { AgentApiError } from '../src/errors.js';
import { startFakeServer, unreachableUrl } from './helpers/fake-server.js';

describe('AgentClient.probe (GET /api/health)', () => {
  it('answers whether the server answers and can store attempts, without sending the key', async () => {
    const server = await startFakeServer();
    try {
      const authorizations: (string | null)[] = [];
      const client = new AgentClient({
        server: server.url,
        key: server.key,
        fetch: (input, init) => {
          authorizations.push(new Headers(init?.headers).get('authorization'));
          return fetch(input, init);
        },
      });
      expect(await client.probe()).toBe(true);
      expect(authorizations).toEqual([null]);

      // 503 with only Redis down: attempts are stored in MySQL, so the server is back for the agent.
      server.health = { database: 'ok', redis: 'down' };
      expect(await client.probe()).toBe(true);

      // 503 with the database down: the process answers but would refuse the attempts.
      server.health = { database: 'down', redis: 'ok' };
      expect(await client.probe()).toBe(false);

      // The route is public: it works with a revoked key too (the key is not what is being tested).
      server.health = { database: 'ok', redis: 'off' };
      server.revoked = true;
      expect(await client.probe()).toBe(true);
      expect(server.healthCalls).toBe(4);

      await server.goDown();
      expect(await client.probe()).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('answers false for an address where nothing listens, or that is not this server', async () => {
    expect(await new AgentClient({ server: await unreachableUrl(), key: 'k' }).probe()).toBe(false);
    const notFound = async () => new Response('<h1>Not Found</h1>', { status: 404 });
    expect(await new AgentClient({ server: 'http://x', key: 'k', fetch: notFound }).probe()).toBe(false);
    const hangs: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) =>
        init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)),
      );
    const started = Date.now();
    expect(
      await new AgentClient({ server: 'http://x', key: 'k', timeoutMs: 100, fetch: hangs }).probe(),
    ).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('AgentClient errors', () => {
  it('carries a 429 answer’s Retry-After (ms) and message', async () => {
    const server = await startFakeServer();
    try {
      server.observedDown = 429;
      server.observedRefusal = { message: MESSAGES.observedRateLimited, retryAfterS: 42 };
      const client = new AgentClient({ server: server.url, key: server.key });
      const row = {
        name: 'juego',
        sha256: null,
        first_seen: new Date().toISOString(),
        last_seen: new Date().toISOString(),
        starts: 1,
      };
      const error = await client.postObserved([row]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AgentApiError);
      expect(error).toMatchObject({
        status: 429,
        retryAfterMs: 42_000,
        serverMessage: MESSAGES.observedRateLimited,
      });

      // Without the header (the cap of programs): no wait to honour.
      server.observedRefusal = { message: MESSAGES.observedCapReached };
      expect(await client.postObserved([row]).catch((e: unknown) => e)).toMatchObject({
        status: 429,
        retryAfterMs: undefined,
      });
    } finally {
      await server.close();
    }
  });
});
