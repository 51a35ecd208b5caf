import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, threadId } from 'node:worker_threads';
import { decode } from 'jpeg-js';
import { afterEach, describe, expect, it } from 'vitest';
import { encoderThreadDefine } from '../scripts/encoder-thread.js';
import { CaptureEncoder, type EncodedGrab } from '../src/capture-encoder.js';
import type { RawGrab } from '../src/capture-screen.js';
import { CaptureUploads } from '../src/capture-uploads.js';

const agentDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** A 24-bit BMP of `width` × `height` pixels of one colour, as the Windows helper writes it. */
function bmpGrab(colour: [number, number, number], width = 1920, height = 1080): RawGrab {
  const stride = Math.ceil((width * 3) / 4) * 4;
  const bytes = Buffer.alloc(54 + stride * height);
  bytes.write('BM', 0, 'latin1');
  bytes.writeUInt32LE(54, 10);
  bytes.writeUInt32LE(40, 14);
  bytes.writeInt32LE(width, 18);
  bytes.writeInt32LE(height, 22);
  bytes.writeUInt16LE(1, 26);
  bytes.writeUInt16LE(24, 28);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = 54 + y * stride + x * 3;
      bytes[at] = colour[2];
      bytes[at + 1] = colour[1];
      bytes[at + 2] = colour[0];
    }
  return { takenAt: new Date().toISOString(), ms: 1, bytes, format: 'bmp' };
}

/** The colour at the centre of an encoded capture, as [r, g, b]. */
function centre(encoded: EncodedGrab): number[] {
  const image = decode(encoded.jpeg, { useTArray: true });
  const at = (Math.floor(image.height / 2) * image.width + Math.floor(image.width / 2)) * 4;
  return [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!];
}
const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 6);

const encoders: CaptureEncoder[] = [];
/** An encoder the test stops afterwards. */
function encoderFor(options: ConstructorParameters<typeof CaptureEncoder>[0]): CaptureEncoder {
  const encoder = new CaptureEncoder(options);
  encoders.push(encoder);
  return encoder;
}

/**
 * Where the agent encodes its captures (capture-encoder.ts): on a worker thread of its own, not the
 * thread that asked (the agent's, which scans and ends programs meanwhile), from the sources (tsx)
 * and from the string the single-file builds embed; one at a time, a judge's request first; a thread
 * that cannot start or dies is said once and the captures are encoded on the caller's thread.
 */
describe('capture encoder', () => {
  afterEach(async () => {
    await Promise.all(encoders.splice(0).map((encoder) => encoder.stop()));
    delete (globalThis as { __CAPTURE_ENCODER_SOURCE__?: string }).__CAPTURE_ENCODER_SOURCE__;
  });

  it('encodes on a thread other than the caller’s, from the sources', async () => {
    const lines: string[] = [];
    const encoder = encoderFor({ log: (line) => lines.push(line) });
    const encoded = await encoder.encode(bmpGrab([200, 40, 90]));
    expect(encoded.threadId).not.toBe(threadId);
    expect([encoded.width, encoded.height]).toEqual([1280, 720]);
    expect(near(centre(encoded), [200, 40, 90]), `${centre(encoded)}`).toBe(true);
    // The same thread takes the next one.
    const again = await encoder.encode(bmpGrab([10, 120, 250], 64, 48));
    expect(again.threadId).toBe(encoded.threadId);
    expect(near(centre(again), [10, 120, 250])).toBe(true);
    expect(lines).toEqual([]);
  }, 60_000);

  it('encodes on a thread of its own from the source string the single-file builds embed', async () => {
    const define = await encoderThreadDefine(agentDir);
    const source = JSON.parse(define.__CAPTURE_ENCODER_SOURCE__!) as string;
    // What the builds' `define` puts in the bundle: the thread's script, not a file beside it.
    expect(source).not.toContain('require("@concurso/shared")');
    (globalThis as { __CAPTURE_ENCODER_SOURCE__?: string }).__CAPTURE_ENCODER_SOURCE__ = source;
    const lines: string[] = [];
    const encoder = encoderFor({ log: (line) => lines.push(line) });
    const encoded = await encoder.encode(bmpGrab([30, 160, 60]));
    expect(encoded.threadId).not.toBe(threadId);
    expect(near(centre(encoded), [30, 160, 60])).toBe(true);
    expect(lines).toEqual([]);
  }, 60_000);

  it('warm starts the thread before the first dump, and that thread takes it', async () => {
    const threads: Worker[] = [];
    const encoder = encoderFor({
      log: () => undefined,
      start: () => {
        threads.push(
          new Worker(
            `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register(); require(${JSON.stringify(path.join(agentDir, 'src', 'capture-encoder-thread.ts'))});`,
            { eval: true, execArgv: [] },
          ),
        );
        return threads.at(-1)!;
      },
    });
    encoder.warm();
    expect(threads.length).toBe(1);
    encoder.warm();
    const encoded = await encoder.encode(bmpGrab([12, 34, 56], 64, 64));
    expect(threads.length).toBe(1);
    expect(encoded.threadId).toBe(threads[0]!.threadId);
  }, 60_000);

  it('an unreadable dump is refused with its reason, and the thread goes on', async () => {
    const encoder = encoderFor({ log: () => undefined });
    const broken: RawGrab = {
      takenAt: new Date().toISOString(),
      ms: 1,
      bytes: Buffer.from('XX'),
      format: 'bmp',
    };
    await expect(encoder.encode(broken)).rejects.toThrow('imagen de pantalla no válida');
    const encoded = await encoder.encode(bmpGrab([1, 2, 3], 32, 32));
    expect(encoded.threadId).not.toBe(threadId);
  }, 60_000);

  it('one at a time, in order, a judge’s request before the kills’ captures still waiting', async () => {
    const encoder = encoderFor({ log: () => undefined });
    const order: string[] = [];
    const queued = [
      encoder.encode(bmpGrab([1, 1, 1], 64, 64)).then(() => order.push('antes 1')),
      encoder.encode(bmpGrab([2, 2, 2], 64, 64)).then(() => order.push('despues 1')),
      encoder.encode(bmpGrab([3, 3, 3], 64, 64)).then(() => order.push('antes 2')),
      encoder.encode(bmpGrab([4, 4, 4], 64, 64), true).then(() => order.push('pedida')),
    ];
    await Promise.all(queued);
    // The first was already on the thread when the request came.
    expect(order).toEqual(['antes 1', 'pedida', 'despues 1', 'antes 2']);
  }, 60_000);

  it('a thread that cannot start: said once, the captures encoded on the caller’s thread', async () => {
    const lines: string[] = [];
    const encoder = encoderFor({
      log: (line) => lines.push(line),
      start: () => {
        throw new Error('sin hilos');
      },
    });
    const first = await encoder.encode(bmpGrab([90, 90, 200], 320, 200));
    const second = await encoder.encode(bmpGrab([200, 90, 90], 320, 200));
    expect([first.threadId, second.threadId]).toEqual([threadId, threadId]);
    expect(near(centre(first), [90, 90, 200]) && near(centre(second), [200, 90, 90])).toBe(true);
    expect(lines).toEqual([
      'No se pudo usar un hilo aparte para las capturas de pantalla (sin hilos): se codifican en el hilo del agente.',
    ]);
  }, 60_000);

  it('a thread that dies with a capture: said once, that capture and the next encoded here', async () => {
    const lines: string[] = [];
    const encoder = encoderFor({
      log: (line) => lines.push(line),
      // A thread that ends as soon as it gets its first job.
      start: () =>
        new Worker("require('node:worker_threads').parentPort.once('message', () => process.exit(7));", {
          eval: true,
        }),
    });
    const first = await encoder.encode(bmpGrab([250, 250, 0], 64, 64));
    const second = await encoder.encode(bmpGrab([0, 250, 250], 64, 64));
    expect([first.threadId, second.threadId]).toEqual([threadId, threadId]);
    expect(near(centre(first), [250, 250, 0])).toBe(true);
    expect(lines).toEqual([
      'No se pudo usar un hilo aparte para las capturas de pantalla (terminó con código 7): se codifican en el hilo del agente.',
    ]);
  }, 60_000);

  it('a kill’s grab is encoded once, from when it was taken (prepare), not again by its entry', async () => {
    class Counting extends CaptureEncoder {
      calls = 0;
      override encode(...args: Parameters<CaptureEncoder['encode']>) {
        this.calls += 1;
        return super.encode(...args);
      }
    }
    const encoder = new Counting({ log: () => undefined });
    encoders.push(encoder);
    const sent: string[] = [];
    const waiting = new Set(['intento-0001', 'intento-0002']);
    const uploads = new CaptureUploads({
      send: async (body) => void sent.push(`${body.event_id} ${body.moment}`),
      attemptWaiting: (id) => waiting.has(id),
      log: () => undefined,
      encoder,
    });
    // Taken at the kill, handed over before its attempt is queued.
    const antes = bmpGrab([70, 80, 90], 320, 200);
    uploads.prepare(antes);
    uploads.addKill('intento-0001', { antes: Promise.resolve(antes), despues: Promise.resolve(null) });
    // A «despues» taken after its entry came: that entry encodes it, a late `prepare` does not again.
    let taken!: (grab: RawGrab) => void;
    const despues = bmpGrab([90, 80, 70], 320, 200);
    uploads.addKill('intento-0002', {
      antes: Promise.resolve(null),
      despues: new Promise<RawGrab>((resolve) => (taken = resolve)),
    });
    taken(despues);
    await uploads.idle();
    uploads.prepare(despues);
    waiting.clear();
    uploads.kick();
    await uploads.idle();
    expect(sent).toEqual(['intento-0001 antes', 'intento-0002 despues']);
    expect(encoder.calls).toBe(2);
  }, 60_000);

  it('the uploads say where their last capture was encoded', async () => {
    const uploads = new CaptureUploads({
      send: async () => undefined,
      attemptWaiting: () => false,
      log: () => undefined,
    });
    uploads.addRequested(
      '8c0b7a3e-2f61-4f7e-9d55-3a1c2b4d5e6f',
      Promise.resolve(bmpGrab([5, 6, 7], 640, 480)),
    );
    await uploads.idle();
    expect(uploads.stats.sent).toBe(1);
    expect(uploads.stats.lastEncodedApart).toBe(true);
    await uploads.stop();
  }, 60_000);
});
