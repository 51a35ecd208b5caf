/**
 * The Windows single executable's captures under Debian's Wine on an Xvfb display: built by
 * `npm run agent:build`, it carries `screenshot.exe` and writes it to its data folder; with the config's
 * `capture_screens` on, ending a Windows program the test made uploads «antes» and «despues» of its
 * attempt to the fake server, each a JPEG showing a Windows window of the test's colour.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { decode } from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCapture } from '@concurso/shared';
import { startXvfb, type VirtualDisplay } from '@concurso/testkit';
import { startFakeServer, type FakeServer } from './helpers/fake-server.js';
import { cleanUp, tempDir, uniqueName, within } from './helpers/processes.js';
import { mingwInstalled, windowsProgram } from './helpers/windows-program.js';
import { WinePrefix, windowsPath, wineInstalled, type WineProcess } from './helpers/wine.js';

const run = promisify(execFile);
const agentDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const version = (
  JSON.parse(await readFile(path.join(agentDir, 'package.json'), 'utf8')) as { version: string }
).version;

/** A Windows program filling the screen with the colour `RRGGBB` of its argument until ended. */
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
  HWND w = CreateWindowExW(0, L"color", L"ventana de color", WS_POPUP | WS_VISIBLE, 0, 0,
                           GetSystemMetrics(SM_CXSCREEN), GetSystemMetrics(SM_CYSCREEN), NULL, NULL, k.hInstance, NULL);
  UpdateWindow(w);
  MSG msg;
  while (GetMessageW(&msg, NULL, 0, 0) > 0) DispatchMessageW(&msg);
  return 0;
}
`;

/**
 * The colour near a capture's top left corner (an eighth of the way in), as [r, g, b]: the centre
 * holds the captures' notice (msg.exe's box, capture-notice.ts).
 */
function corner(capture: AgentCapture): number[] {
  const image = decode(Buffer.from(capture.image, 'base64'), { useTArray: true });
  const at = (Math.floor(image.height / 8) * image.width + Math.floor(image.width / 8)) * 4;
  return [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!];
}

describe.runIf(wineInstalled() && mingwInstalled())(
  'captures of the Windows single executable (Wine on Xvfb)',
  () => {
    let out: string;
    let screen: VirtualDisplay;
    let prefix: WinePrefix;
    let server: FakeServer;
    const started: WineProcess[] = [];

    beforeAll(async () => {
      out = await tempDir('agent-build-capture-');
      screen = await startXvfb();
      prefix = new WinePrefix(await tempDir('agent-wine-'));
      prefix.env.DISPLAY = screen.display;
      await Promise.all([
        run(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--out', out], {
          cwd: agentDir,
          timeout: 240_000,
        }),
        prefix.init(),
      ]);
    }, 300_000);

    afterAll(async () => {
      for (const p of started) p.child.kill('SIGKILL');
      await prefix?.kill();
      await server?.close();
      screen?.stop();
      await cleanUp();
    }, 60_000);

    it('ends a blocked Windows program and uploads «antes» and «despues» of the colour on screen', async () => {
      const dir = await tempDir('agent-capture-exe-');
      await writeFile(path.join(dir, 'ventana.c'), COLOUR_WINDOW);
      const colourWindow = path.join(dir, 'ventana.exe');
      await run('x86_64-w64-mingw32-gcc', [
        '-O2',
        '-municode',
        '-mwindows',
        '-o',
        colourWindow,
        path.join(dir, 'ventana.c'),
      ]);
      started.push(prefix.spawn(colourWindow, ['8a2be2'], 'ventana'));
      expect(await screen.waitForWindow('ventana de color', 30_000)).not.toBe('');

      const blocked = uniqueName('prohibido');
      server = await startFakeServer([blocked]);
      server.config.capture_screens = true;
      const dataDir = await tempDir('agent-wine-data-');
      const keyFile = path.join(dataDir, 'clave.txt');
      await writeFile(keyFile, server.key);
      const exe = path.join(out, `concurso-agent-${version}-win-x64.exe`);
      const agent = prefix.spawn(
        exe,
        [
          '--server',
          server.url,
          '--key-file',
          windowsPath(keyFile),
          '--data-dir',
          windowsPath(dataDir),
          '--poll-ms',
          '200',
        ],
        'agent',
      );
      started.push(agent);
      const beat = Date.now() + 90_000;
      while (server.heartbeats.length === 0 && Date.now() < beat)
        await new Promise((resolve) => setTimeout(resolve, 200));
      expect(server.heartbeats.length, await agent.output()).toBeGreaterThan(0);

      const program = prefix.spawn(await windowsProgram(`${blocked}.exe`, {}), [], 'programa');
      started.push(program);
      await within(30_000, program.exited, 'el ejecutable de Windows termina el programa bloqueado');

      const deadline = Date.now() + 60_000;
      let captures: AgentCapture[] = [];
      while (Date.now() < deadline) {
        const attempt = [...server.stored.values()][0];
        captures = server.captures.filter((c) => attempt && c.event_id === attempt.event_id);
        if (captures.length === 2) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(captures.map((c) => c.moment).sort(), await agent.output()).toEqual(['antes', 'despues']);
      for (const capture of captures) {
        const colour = corner(capture);
        expect(
          colour.every((v, i) => Math.abs(v - [0x8a, 0x2b, 0xe2][i]!) <= 6),
          `esquina ${colour}`,
        ).toBe(true);
      }
      // The helper is where the agent wrote it, and no capture file is left behind.
      expect(existsSync(path.join(dataDir, 'screenshot.exe'))).toBe(true);
      expect((await readdir(dataDir)).filter((name) => name.endsWith('.bmp'))).toEqual([]);
    }, 240_000);
  },
);
