import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AgentCapture } from '@concurso/shared';
import { Backoff } from '../src/backoff.js';
import type { RawGrab } from '../src/capture-screen.js';
import { CaptureUploads } from '../src/capture-uploads.js';
import { AgentApiError } from '../src/errors.js';

/** A grab of a 4 × 2 screen of one colour, as the Windows helper writes it (a 24-bit BMP). */
function grabOf(colour: [number, number, number]): RawGrab {
  const width = 4;
  const height = 2;
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(width, 18);
  header.writeInt32LE(height, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  const row = Buffer.from(Array.from({ length: width }, () => [colour[2], colour[1], colour[0]]).flat());
  return {
    takenAt: new Date().toISOString(),
    ms: 1,
    bytes: Buffer.concat([header, row, row]),
    format: 'bmp',
  };
}

/** Waits (every 10 ms) until `check` holds, at most 10 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: no ocurrió`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The captures' queue (capture-uploads.ts): a capture of a kill goes only once its attempt left the
 * outbox; at most `max` wait, the oldest dropped and counted; a transient failure keeps it for the
 * backoff, a refusal drops it. Requested captures go without waiting for any attempt.
 */
describe('capture uploads', () => {
  it("a kill's captures wait for their attempt to leave the outbox, then go in order", async () => {
    const sent: AgentCapture[] = [];
    const waiting = new Set(['intento-0001']);
    const uploads = new CaptureUploads({
      send: async (body) => void sent.push(body),
      attemptWaiting: (id) => waiting.has(id),
      log: () => undefined,
    });
    uploads.addKill('intento-0001', {
      antes: Promise.resolve(grabOf([10, 20, 30])),
      despues: Promise.resolve(grabOf([40, 50, 60])),
    });
    await uploads.idle();
    uploads.kick();
    expect(sent).toEqual([]);
    expect(uploads.size).toBe(2);

    waiting.delete('intento-0001');
    uploads.kick();
    await until(() => sent.length === 2, 'los dos envíos');
    expect(sent.map((c) => [c.event_id, c.moment, c.mime])).toEqual([
      ['intento-0001', 'antes', 'image/jpeg'],
      ['intento-0001', 'despues', 'image/jpeg'],
    ]);
    expect(Buffer.from(sent[0]!.image, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(uploads.size).toBe(0);
    expect(uploads.stats.sent).toBe(2);
  }, 20_000);

  it('never more than max waiting: the oldest is dropped first and counted', async () => {
    const uploads = new CaptureUploads({
      send: async () => undefined,
      attemptWaiting: () => true,
      log: () => undefined,
      max: 3,
    });
    for (let i = 0; i < 4; i++)
      uploads.addKill(`intento-000${i}`, {
        antes: Promise.resolve(grabOf([1, 2, 3])),
        despues: Promise.resolve(null),
      });
    expect(uploads.size).toBe(3);
    expect(uploads.stats.dropped).toBe(5);
    await uploads.idle();
    // Of the newest three, the two «despues» that gave nothing left; the last «antes» waits.
    expect(uploads.size).toBe(1);
  }, 30_000);

  it('a transient failure keeps it for the backoff; a refusal drops it; a request goes at once', async () => {
    const failures: AgentApiError[] = [
      new AgentApiError('unreachable', 'No se pudo conectar'),
      new AgentApiError('http', 'La captura no corresponde', 404),
    ];
    const sent: AgentCapture[] = [];
    const lines: string[] = [];
    const uploads = new CaptureUploads({
      send: async (body) => {
        const failure = failures.shift();
        if (failure) throw failure;
        sent.push(body);
      },
      attemptWaiting: () => false,
      log: (line) => lines.push(line),
      backoff: new Backoff({ baseMs: 50, jitter: 0 }),
    });
    const first = randomUUID();
    const second = randomUUID();
    uploads.addRequested(first, Promise.resolve(grabOf([9, 9, 9])));
    await until(() => failures.length === 1, 'el primer intento de envío');
    expect(uploads.size).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    // After the backoff: refused (404), so dropped.
    uploads.kick();
    await until(() => failures.length === 0 && uploads.size === 0, 'el rechazo');
    expect(uploads.stats.dropped).toBe(1);
    uploads.addRequested(second, Promise.resolve(grabOf([9, 9, 9])));
    await until(() => sent.length === 1, 'el envío');
    expect(sent[0]).toMatchObject({ request_id: second, moment: 'pedida' });
    expect(sent[0]).not.toHaveProperty('event_id');
    expect(lines).toEqual([
      'No se pudo enviar una captura de pantalla: No se pudo conectar',
      'No se pudo enviar una captura de pantalla: La captura no corresponde',
    ]);
  }, 20_000);
});
