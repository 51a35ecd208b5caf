import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { AgentAttempt } from '@concurso/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { Backoff } from '../src/backoff.js';
import { AgentClient } from '../src/client.js';
import { Delivery } from '../src/delivery.js';
import { AgentApiError } from '../src/errors.js';
import { Outbox } from '../src/outbox.js';
import { startFakeServer, type FakeServer } from './helpers/fake-server.js';
import { cleanUp, tempDir } from './helpers/processes.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await cleanUp();
});

const attempts = (n: number): AgentAttempt[] =>
  Array.from({ length: n }, () => ({
    event_id: randomUUID(),
    process: 'Discord.exe',
    occurred_at: new Date().toISOString(),
  }));

async function setUp() {
  server = await startFakeServer(['Discord.exe']);
  const outbox = await Outbox.open(path.join(await tempDir(), 'outbox.json'));
  const client = new AgentClient({ server: server.url, key: server.key });
  return { server, outbox, client };
}

describe('Delivery', () => {
  it('sends in order, in batches of at most 500, and empties the outbox', async () => {
    const { server, outbox, client } = await setUp();
    const queued = attempts(1_201);
    await outbox.add(...queued);

    const result = await new Delivery(outbox, client).flush();

    expect(result).toEqual({ acknowledged: 1_201, pending: 0 });
    expect(server.posts.map((batch) => batch.length)).toEqual([500, 500, 201]);
    expect(server.posts.flat().map((a) => a.event_id)).toEqual(queued.map((a) => a.event_id));
    expect(outbox.size).toBe(0);
  });

  it('keeps what failed, backs off, and stops at the first failing batch', async () => {
    const { server, outbox, client } = await setUp();
    await outbox.add(...attempts(700));
    server.attemptFailures.push({ status: 503, when: 'before-store' });
    const failures: { error: unknown; pending: number; retryInMs: number }[] = [];
    const backoff = new Backoff({ random: () => 0 });
    const delivery = new Delivery(outbox, client, {
      backoff,
      onFailed: (error, pending, retryInMs) => failures.push({ error, pending, retryInMs }),
    });

    const result = await delivery.flush();
    expect(result.pending).toBe(700);
    expect(server.posts).toHaveLength(1);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.error).toBeInstanceOf(AgentApiError);
    expect((failures[0]!.error as AgentApiError).status).toBe(503);
    expect(failures[0]!.retryInMs).toBe(1_000);
    expect(backoff.due).toBe(false);

    // kick() respects the backoff; flush() does not.
    delivery.kick();
    await delivery.idle();
    expect(server.posts).toHaveLength(1);
    expect(await delivery.flush()).toEqual({ acknowledged: 700, pending: 0 });
    expect(server.stored.size).toBe(700);
  });

  it('tells a revoked key (401) apart from an unreachable server', async () => {
    const { server, outbox, client } = await setUp();
    await outbox.add(...attempts(1));
    server.revoked = true;
    const errors: unknown[] = [];
    await new Delivery(outbox, client, { onFailed: (e) => errors.push(e) }).flush();
    await server.close();
    await new Delivery(outbox, client, { onFailed: (e) => errors.push(e) }).flush();

    expect(errors.map((e) => (e as AgentApiError).kind)).toEqual(['unauthorized', 'unreachable']);
    expect(outbox.size).toBe(1);
  });
});
