/**
 * screenshot.exe (agent/native/screenshot.c), the Windows screen capture, under Debian's Wine on an
 * Xvfb display (Wine's desktop): a window of the test's own, a Windows program filling the screen
 * with one colour, is what the helper's BMP shows, and the agent's reading of it (capture-image.ts)
 * encodes a JPEG of that colour. Xvfb's own root is black, so the colour is the Windows window's.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { decode } from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { decodeBmp, encodeCapture } from '../src/capture-image.js';
import { tempDir } from './helpers/processes.js';
import { colourWindow, mingwInstalled } from './helpers/windows-program.js';
import { useWineScreen, windowsPath, wineInstalled } from './helpers/wine.js';

const run = promisify(execFile);
const agentDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe.runIf(wineInstalled() && mingwInstalled())(
  'screenshot.exe captures the screen (Wine on Xvfb)',
  () => {
    let dir: string;
    let helper: string;
    let colourWindowExe: string;
    const wine = useWineScreen(180_000, async () => {
      dir = await tempDir('agent-screenshot-');
      helper = path.join(dir, 'screenshot.exe');
      const source = path.join(agentDir, 'native', 'screenshot.c');
      [colourWindowExe] = await Promise.all([
        colourWindow(true),
        run('x86_64-w64-mingw32-gcc', ['-O2', '-municode', '-s', '-o', helper, source, '-lgdi32']),
      ]);
    });

    it('the BMP it writes is the virtual screen, showing a Windows window of a known colour', async () => {
      wine.started.push(wine.prefix.spawn(colourWindowExe, ['3cb371'], 'ventana'));
      expect(await wine.screen.waitForWindow('ventana de color', 30_000), 'la ventana de Windows').not.toBe(
        '',
      );
      const bmp = path.join(dir, 'pantalla.bmp');
      // A window just mapped draws within a moment: grab again until it shows (at most 15 s).
      let centre: number[] = [];
      let image: ReturnType<typeof decodeBmp> | null = null;
      let tookMs = 0;
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        const started = Date.now();
        const capture = wine.prefix.spawn(helper, [windowsPath(bmp)], `captura-${Date.now()}`);
        const { code } = await capture.exited;
        tookMs = Date.now() - started;
        expect(code, await capture.output()).toBe(0);
        image = decodeBmp(await readFile(bmp));
        const at = (384 * image.width + 512) * 4;
        centre = [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!];
        if (centre.join() === '60,179,113') break;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      console.log(`screenshot.exe bajo Wine: ${tookMs} ms (con el arranque de Wine)`);
      expect([image!.width, image!.height]).toEqual([1024, 768]);
      expect(centre).toEqual([0x3c, 0xb3, 0x71]);

      const jpeg = decode(encodeCapture(image!).jpeg, { useTArray: true });
      const at = (700 * jpeg.width + 20) * 4;
      const corner = [jpeg.data[at]!, jpeg.data[at + 1]!, jpeg.data[at + 2]!];
      expect(
        corner.every((v, i) => Math.abs(v - [0x3c, 0xb3, 0x71][i]!) <= 6),
        `${corner}`,
      ).toBe(true);
    }, 60_000);

    it('without the file to write it exits with code 2', async () => {
      const capture = wine.prefix.spawn(helper, [], 'sin-archivo');
      expect((await capture.exited).code).toBe(2);
    }, 30_000);
  },
);
