/**
 * screenshot.exe (agent/native/screenshot.c), the Windows screen capture, under Debian's Wine on an
 * Xvfb display (Wine's desktop): a window of the test's own, a Windows program filling the screen
 * with one colour, is what the helper's BMP shows, and the agent's reading of it (capture-image.ts)
 * encodes a JPEG of that colour. Xvfb's own root is black, so the colour is the Windows window's.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { decode } from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXvfb, type VirtualDisplay } from '@concurso/testkit';
import { decodeBmp, encodeCapture } from '../src/capture-image.js';
import { cleanUp, tempDir } from './helpers/processes.js';
import { mingwInstalled } from './helpers/windows-program.js';
import { WinePrefix, windowsPath, wineInstalled, type WineProcess } from './helpers/wine.js';

const run = promisify(execFile);
const agentDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const GCC = 'x86_64-w64-mingw32-gcc';

/** A Windows program that fills the screen with the colour `RRGGBB` of its argument until ended. */
const COLOUR_WINDOW = `#include <windows.h>
#include <stdlib.h>
static LRESULT CALLBACK on(HWND w, UINT m, WPARAM wp, LPARAM lp) {
  if (m == WM_DESTROY) { PostQuitMessage(0); return 0; }
  return DefWindowProcW(w, m, wp, lp);
}
int wmain(int argc, wchar_t **argv) {
  unsigned long c = argc > 1 ? wcstoul(argv[1], NULL, 16) : 0xff00ff;
  WNDCLASSW k = {0};
  k.lpfnWndProc = on;
  k.hInstance = GetModuleHandleW(NULL);
  k.lpszClassName = L"color";
  k.hbrBackground = CreateSolidBrush(RGB((c >> 16) & 255, (c >> 8) & 255, c & 255));
  RegisterClassW(&k);
  HWND w = CreateWindowExW(WS_EX_TOPMOST, L"color", L"ventana de color", WS_POPUP | WS_VISIBLE, 0, 0,
                           GetSystemMetrics(SM_CXSCREEN), GetSystemMetrics(SM_CYSCREEN), NULL, NULL, k.hInstance, NULL);
  UpdateWindow(w);
  MSG msg;
  while (GetMessageW(&msg, NULL, 0, 0) > 0) DispatchMessageW(&msg);
  return 0;
}
`;

describe.runIf(wineInstalled() && mingwInstalled())(
  'screenshot.exe captures the screen (Wine on Xvfb)',
  () => {
    let screen: VirtualDisplay;
    let prefix: WinePrefix;
    let dir: string;
    let helper: string;
    let colourWindow: string;
    const started: WineProcess[] = [];

    beforeAll(async () => {
      screen = await startXvfb();
      dir = await tempDir('agent-screenshot-');
      helper = path.join(dir, 'screenshot.exe');
      colourWindow = path.join(dir, 'ventana.exe');
      await writeFile(path.join(dir, 'ventana.c'), COLOUR_WINDOW);
      prefix = new WinePrefix(await tempDir('agent-wine-'));
      // Wine draws its windows, and reads the screen, on this display.
      prefix.env.DISPLAY = screen.display;
      await Promise.all([
        run(GCC, [
          '-O2',
          '-municode',
          '-s',
          '-o',
          helper,
          path.join(agentDir, 'native', 'screenshot.c'),
          '-lgdi32',
        ]),
        run(GCC, ['-O2', '-municode', '-mwindows', '-o', colourWindow, path.join(dir, 'ventana.c')]),
        prefix.init(),
      ]);
    }, 180_000);

    afterAll(async () => {
      for (const p of started) p.child.kill('SIGKILL');
      await prefix?.kill();
      screen?.stop();
      await cleanUp();
    }, 60_000);

    it('the BMP it writes is the virtual screen, showing a Windows window of a known colour', async () => {
      started.push(prefix.spawn(colourWindow, ['3cb371'], 'ventana'));
      expect(await screen.waitForWindow('ventana de color', 30_000), 'la ventana de Windows').not.toBe('');
      const bmp = path.join(dir, 'pantalla.bmp');
      // A window just mapped draws within a moment: grab again until it shows (at most 15 s).
      let centre: number[] = [];
      let image: ReturnType<typeof decodeBmp> | null = null;
      let tookMs = 0;
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        const started = Date.now();
        const capture = prefix.spawn(helper, [windowsPath(bmp)], `captura-${Date.now()}`);
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
      const capture = prefix.spawn(helper, [], 'sin-archivo');
      expect((await capture.exited).code).toBe(2);
    }, 30_000);
  },
);
