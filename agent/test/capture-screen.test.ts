import { decode } from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTURE_MAX_BYTES, CAPTURE_MAX_WIDTH } from '@concurso/shared';
import { startXvfb, type VirtualDisplay } from '@concurso/testkit';
import { decodeBmp, encodeCapture, scaleToWidth, type RgbaImage } from '../src/capture-image.js';
import { GrabError, decodeGrab, xwdGrabber } from '../src/capture-screen.js';
import { ScreenCapture } from '../src/capture.js';

/** Grabs until the centre shows `colour` (a window just mapped draws within a moment), at most 20 s. */
async function grabShowing(screen: VirtualDisplay, colour: number[]) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const grab = await xwdGrabber(screen.display)();
    const image = decodeGrab(grab);
    if (near(pixel(image, 512, 384), colour, 0) || Date.now() > deadline) return { grab, image };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The pixel at (x, y) of an RGBA image, as [r, g, b]. */
const pixel = (image: { width: number; data: Uint8Array }, x: number, y: number): number[] => {
  const at = (y * image.width + x) * 4;
  return [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!];
};

/** Whether two colours are within `tolerance` per channel (JPEG moves a flat colour by a few units). */
const near = (a: number[], b: number[], tolerance = 6): boolean =>
  a.every((value, i) => Math.abs(value - b[i]!) <= tolerance);

/**
 * The capture of the contestant's screen on Linux (agent/README.md, «Capturas de pantalla»): Xvfb
 * stands for the session, the test paints its whole screen one colour (a window of `xlogo`, an X
 * client), and the agent's grabber (`xwd -root`) read into pixels and encoded as the JPEG the server
 * gets decodes back to that colour. Prints the grab's and the encoding's time and the JPEG's size.
 */
describe('screen capture on Linux (Xvfb)', () => {
  let screen: VirtualDisplay;

  beforeAll(async () => {
    screen = await startXvfb();
  }, 30_000);

  afterAll(() => {
    screen?.stop();
  });

  it('grabs the display a test painted and the JPEG decodes to its colour', async () => {
    const colour = [0x2a, 0x7f, 0xd4];
    const first = await screen.paint('#2a7fd4');
    const { grab, image } = await grabShowing(screen, colour);
    expect(grab.format).toBe('xwd');
    expect(Date.parse(grab.takenAt)).toBeGreaterThan(Date.now() - 60_000);
    expect([image.width, image.height]).toEqual([1024, 768]);
    expect(near(pixel(image, 512, 384), colour, 0), `centro ${pixel(image, 512, 384)}`).toBe(true);

    const started = Date.now();
    const encoded = encodeCapture(image);
    console.log(
      `captura Xvfb 1024×768: xwd ${grab.ms} ms, lectura y JPEG ${Date.now() - started} ms, ${encoded.jpeg.length} bytes (calidad ${encoded.quality})`,
    );
    expect(encoded.jpeg.length).toBeLessThanOrEqual(CAPTURE_MAX_BYTES);
    const back = decode(encoded.jpeg, { useTArray: true });
    expect([back.width, back.height]).toEqual([1024, 768]);
    for (const [x, y] of [
      [10, 10],
      [512, 384],
      [1000, 750],
    ] as const)
      expect(near(pixel(back, x, y), colour), `(${x}, ${y}) ${pixel(back, x, y)}`).toBe(true);

    // Another colour: the grab is of the screen now, not a stale one.
    first.kill('SIGKILL');
    await screen.paint('#d4402a');
    const { image: now } = await grabShowing(screen, [0xd4, 0x40, 0x2a]);
    const again = decode(encodeCapture(now).jpeg, { useTArray: true });
    expect(near(pixel(again, 512, 384), [0xd4, 0x40, 0x2a])).toBe(true);
  }, 60_000);

  it('a display with no X server is a GrabError, said once in the log and answered null; kills then take none', async () => {
    const lines: string[] = [];
    const capture = new ScreenCapture(
      xwdGrabber(':1999'),
      () => true,
      (line) => lines.push(line),
    );
    await expect(xwdGrabber(':1999')()).rejects.toBeInstanceOf(GrabError);
    expect(capture.enabled()).toBe(true);
    expect(await capture.grab()).toBeNull();
    expect(await capture.grab()).toBeNull();
    expect(lines).toEqual(['No se tomó la captura de pantalla: sin sesión gráfica.']);
    // No program is stopped for a capture that cannot be taken (for a minute after the failure).
    expect(capture.enabled()).toBe(false);
    expect(capture.stats.failed).toBe(2);
  });

  it('without xwd installed: one Spanish line naming the Debian package, the grab skipped', async () => {
    const lines: string[] = [];
    const path = process.env.PATH;
    // A PATH where xwd cannot be found (a lab machine without x11-apps).
    process.env.PATH = '/nonexistent';
    try {
      const capture = new ScreenCapture(
        xwdGrabber(screen.display),
        () => true,
        (line) => lines.push(line),
      );
      expect(await capture.grab()).toBeNull();
    } finally {
      process.env.PATH = path;
    }
    expect(lines).toEqual(['No se tomó la captura de pantalla: falta xwd (paquete x11-apps de Debian).']);
  });

  it('one grab at a time: a second asked for while one runs gets the same', async () => {
    let grabs = 0;
    const capture = new ScreenCapture(
      async () => {
        grabs += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
        return { takenAt: new Date().toISOString(), ms: 50, bytes: Buffer.alloc(0), format: 'xwd' };
      },
      () => true,
      () => undefined,
    );
    const [a, b] = await Promise.all([capture.grab(), capture.grab()]);
    expect(a).toBe(b);
    expect(grabs).toBe(1);
    await capture.grab();
    expect(grabs).toBe(2);
    expect(capture.enabled()).toBe(true);
  });
});

describe('capture images', () => {
  /** A `width` × `height` image: left half `left`, right half `right`. */
  const halves = (width: number, height: number, left: number[], right: number[]): RgbaImage => {
    const data = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const c = x < width / 2 ? left : right;
        data.set([c[0]!, c[1]!, c[2]!, 255], (y * width + x) * 4);
      }
    return { width, height, data };
  };

  it('a 1920 × 1080 screen is scaled to 1280 × 720, each half keeping its colour', () => {
    const scaled = scaleToWidth(halves(1920, 1080, [255, 0, 0], [0, 0, 255]));
    expect([scaled.width, scaled.height]).toEqual([CAPTURE_MAX_WIDTH, 720]);
    expect(pixel(scaled, 100, 100)).toEqual([255, 0, 0]);
    expect(pixel(scaled, 1200, 700)).toEqual([0, 0, 255]);
    // The column across the middle averages both.
    const middle = pixel(scaled, 640, 10);
    expect(middle[0]! + middle[2]!).toBeGreaterThan(200);
  });

  it('noise that does not fit in 200 KB goes down in quality, then in size, until it does', () => {
    const width = 1920;
    const height = 1080;
    const data = Buffer.alloc(width * height * 4);
    let seed = 7;
    for (let i = 0; i < data.length; i++) data[i] = (seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16;
    const encoded = encodeCapture({ width, height, data });
    expect(encoded.jpeg.length).toBeLessThanOrEqual(CAPTURE_MAX_BYTES);
    expect(encoded.width).toBeLessThan(CAPTURE_MAX_WIDTH);
  });

  it("reads the Windows helper's BMP: 24 bits, bottom-up, rows padded to 4 bytes", () => {
    // 3 × 2: top row red, green, blue; bottom row white, black, grey. Rows of 9 bytes padded to 12.
    const rows = [
      [255, 255, 255, 0, 0, 0, 128, 128, 128, 0, 0, 0],
      [0, 0, 255, 0, 255, 0, 255, 0, 0, 0, 0, 0],
    ];
    const header = Buffer.alloc(54);
    header.write('BM', 0, 'latin1');
    header.writeUInt32LE(54 + 24, 2);
    header.writeUInt32LE(54, 10);
    header.writeUInt32LE(40, 14);
    header.writeInt32LE(3, 18);
    header.writeInt32LE(2, 22);
    header.writeUInt16LE(1, 26);
    header.writeUInt16LE(24, 28);
    const image = decodeBmp(Buffer.concat([header, Buffer.from(rows.flat())]));
    expect([image.width, image.height]).toEqual([3, 2]);
    expect([pixel(image, 0, 0), pixel(image, 1, 0), pixel(image, 2, 0)]).toEqual([
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
    ]);
    expect([pixel(image, 0, 1), pixel(image, 1, 1), pixel(image, 2, 1)]).toEqual([
      [255, 255, 255],
      [0, 0, 0],
      [128, 128, 128],
    ]);
  });
});
