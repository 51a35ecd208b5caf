import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { MESSAGES, type AgentAttempt } from '@concurso/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { Backoff } from '../src/backoff.js';
import { AgentClient } from '../src/client.js';
import { Delivery, type AttemptsRefused } from '../src/delivery.js';
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

  it('keeps a batch the server holds back with 429 and Retry-After, and waits at least that long', async () => {
    const { server, outbox, client } = await setUp();
    await outbox.add(...attempts(3));
    server.attemptFailures.push({
      status: 429,
      when: 'before-store',
      message: MESSAGES.agentAttemptsCapReached,
      retryAfterS: 300,
    });
    let now = 50_000;
    const backoff = new Backoff({ random: () => 0, now: () => now });
    const retries: number[] = [];
    const delivery = new Delivery(outbox, client, {
      backoff,
      onFailed: (_error, _pending, retryInMs) => retries.push(retryInMs),
    });

    expect(await delivery.flush()).toMatchObject({ acknowledged: 0, pending: 3 });
    expect(retries).toEqual([300_000]);
    now += 299_000;
    expect(backoff.due).toBe(false);
    now += 1_000;
    expect(backoff.due).toBe(true);
    expect(await delivery.flush()).toEqual({ acknowledged: 3, pending: 0 });
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

  it('after an outage, sends as soon as a probe finds the server back, not when the backoff fires', async () => {
    const { server, outbox, client } = await setUp();
    await outbox.add(...attempts(3));
    const retries: number[] = [];
    const backoff = new Backoff({ random: () => 0 });
    const delivery = new Delivery(outbox, client, {
      backoff,
      probe: () => client.probe(),
      onFailed: (_error, _pending, retryInMs) => retries.push(retryInMs),
    });

    await server.goDown();
    for (let i = 0; i < 6; i++) await delivery.flush();
    expect(retries.at(-1)).toBe(30_000);
    expect(await delivery.probeServer()).toBe(false);
    expect(backoff.due).toBe(false);

    await server.comeBack();
    expect(await delivery.probeServer()).toBe(true);
    await delivery.idle();
    expect(server.stored.size).toBe(3);
    expect(outbox.size).toBe(0);
    expect(backoff.failureCount).toBe(0);
    // Nothing left to send: no more probes.
    const calls = server.healthCalls;
    expect(await delivery.probeServer()).toBe(false);
    expect(server.healthCalls).toBe(calls);
  });

  it('waits while health answers 503 with the database down, and sends once it is back', async () => {
    const { server, outbox, client } = await setUp();
    await outbox.add(...attempts(1));
    // A first delay far longer than the test: only a probe can start the second send.
    const backoff = new Backoff({ baseMs: 60_000 });
    const delivery = new Delivery(outbox, client, { backoff, probe: () => client.probe() });
    server.attemptsDown = 503;
    server.health.database = 'down';
    await delivery.flush();

    // The process answers, but would refuse the attempts: sending now would only grow the backoff.
    expect(await delivery.probeServer()).toBe(false);
    expect(server.posts).toHaveLength(1);

    server.attemptsDown = null;
    server.health.database = 'ok';
    expect(await delivery.probeServer()).toBe(true);
    await delivery.idle();
    expect(server.stored.size).toBe(1);
  });

  it('keeps the backoff when the server is up but refused the batch, or the key is revoked', async () => {
    const { server, outbox, client } = await setUp();
    await outbox.add(...attempts(1));
    const backoff = new Backoff({ baseMs: 60_000 });
    const delivery = new Delivery(outbox, client, { backoff, probe: () => client.probe() });

    // A live server that answered 500: the probe sees it up, but never saw it down.
    server.attemptFailures.push({ status: 500, when: 'before-store' });
    await delivery.flush();
    expect(await delivery.probeServer()).toBe(false);
    expect(await delivery.probeServer()).toBe(false);
    expect(server.posts).toHaveLength(1);

    // A 503 while health says the database is fine (an overloaded route): one retry on the probe's
    // word, and if that fails too, the probe waits to see the server down before another.
    server.attemptsDown = 503;
    await delivery.flush();
    expect(await delivery.probeServer()).toBe(true);
    await delivery.idle();
    expect(server.posts).toHaveLength(3);
    expect(await delivery.probeServer()).toBe(false);
    expect(server.posts).toHaveLength(3);
    server.attemptsDown = null;

    // A revoked key is not transient: no probe at all.
    server.revoked = true;
    await delivery.flush();
    const calls = server.healthCalls;
    expect(await delivery.probeServer()).toBe(false);
    expect(server.healthCalls).toBe(calls);
  });

  it('sets aside the attempt a 422 names, sends the rest at once, and later attempts keep flowing', async () => {
    const { server, outbox, client } = await setUp();
    const queued = attempts(5);
    const bad = queued[2]!;
    const why = 'occurred_at: la fecha está más de un día adelante del reloj del servidor';
    server.refuse = (a) => (a.event_id === bad.event_id ? { field: 'occurred_at', message: why } : null);
    await outbox.add(...queued);
    const refusals: AttemptsRefused[] = [];
    const failures: unknown[] = [];
    const backoff = new Backoff({ baseMs: 60_000 });
    const delivery = new Delivery(outbox, client, {
      backoff,
      onRefused: (r) => refusals.push(r),
      onFailed: (e) => failures.push(e),
    });

    expect(await delivery.flush()).toEqual({ acknowledged: 4, pending: 0, refused: 1 });
    expect(server.posts.map((batch) => batch.length)).toEqual([5, 4]);
    expect([...server.stored.keys()]).toEqual(queued.filter((a) => a !== bad).map((a) => a.event_id));
    expect(refusals).toEqual([{ count: 1, reasons: [why], file: outbox.refusedFile }]);
    expect(failures).toEqual([]);
    expect(backoff.due).toBe(true);
    // Set aside with the server's reasons, not deleted.
    expect(await outbox.refused()).toEqual([
      { attempt: bad, reasons: [why], refused_at: expect.any(String) },
    ]);

    // The next attempts go through the normal path, without waiting.
    const later = attempts(3);
    await outbox.add(...later);
    delivery.kick();
    await delivery.idle();
    expect(outbox.size).toBe(0);
    expect(server.stored.size).toBe(7);
    expect(server.posts.at(-1)!.map((a) => a.event_id)).toEqual(later.map((a) => a.event_id));
  });

  it('sets aside a batch the server turns away because its contest is not the active one (409)', async () => {
    const { server, outbox, client } = await setUp();
    const queued = attempts(2);
    await outbox.add(...queued);
    server.attemptFailures.push({
      status: 409,
      when: 'before-store',
      message: MESSAGES.agentContestInactive,
    });
    const refusals: AttemptsRefused[] = [];
    const delivery = new Delivery(outbox, client, { onRefused: (r) => refusals.push(r) });

    expect(await delivery.flush()).toEqual({ acknowledged: 0, pending: 0, refused: 2 });
    expect(refusals.map((r) => [r.count, r.reasons])).toEqual([[2, [MESSAGES.agentContestInactive]]]);
    expect(server.stored.size).toBe(0);
    expect((await outbox.refused()).map((r) => r.attempt)).toEqual(queued);
  });

  it('sets aside the whole batch when a 422 names no attempt, instead of sending it again forever', async () => {
    const { server, outbox, client } = await setUp();
    const queued = attempts(3);
    await outbox.add(...queued);
    server.attemptFailures.push({
      status: 422,
      when: 'before-store',
      errors: { _: ['La solicitud no es válida.'] },
    });
    const refusals: AttemptsRefused[] = [];
    const delivery = new Delivery(outbox, client, { batchSize: 2, onRefused: (r) => refusals.push(r) });

    expect(await delivery.flush()).toEqual({ acknowledged: 1, pending: 0, refused: 2 });
    expect(refusals.map((r) => [r.count, r.reasons])).toEqual([[2, ['La solicitud no es válida.']]]);
    expect([...server.stored.keys()]).toEqual([queued[2]!.event_id]);
    expect((await outbox.refused()).map((r) => r.attempt)).toEqual(queued.slice(0, 2));

    // Without messages by field, the answer's own message is the reason.
    server.attemptFailures.push({ status: 422, when: 'before-store' });
    await outbox.add(...attempts(1));
    await delivery.flush();
    expect(refusals.at(-1)).toMatchObject({
      count: 1,
      reasons: ['Por favor llene todos los campos correctamente'],
    });
    expect(await outbox.refused()).toHaveLength(3);
  });
});
