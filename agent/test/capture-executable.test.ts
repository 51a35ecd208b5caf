/**
 * The Windows single executable's captures under Debian's Wine on an Xvfb display: built by
 * `npm run agent:build`, it carries `screenshot.exe` and writes it to its data folder; with the config's
 * `capture_screens` on, ending a Windows program the test made uploads «antes» and «despues» of its
 * attempt to the fake server, each a JPEG showing a Windows window of the test's colour.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { decode } from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import type { AgentCapture } from '@concurso/shared';
import { startFakeServer, type FakeServer } from './helpers/fake-server.js';
import { uniqueName, within } from './helpers/processes.js';
import { agentExecutable, sharedAgentBuild } from './helpers/agent-build.js';
import { colourWindow, mingwInstalled, windowsProgram } from './helpers/windows-program.js';
import { useWineScreen, wineInstalled } from './helpers/wine.js';

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
    let server: FakeServer | undefined;
    const wine = useWineScreen(
      300_000,
      async () => {
        out = await sharedAgentBuild(240_000);
      },
      async () => server?.close(),
    );

    it('ends a blocked Windows program and uploads «antes» and «despues» of the colour on screen', async () => {
      wine.started.push(wine.prefix.spawn(await colourWindow(false), ['8a2be2'], 'ventana'));
      expect(await wine.screen.waitForWindow('ventana de color', 30_000)).not.toBe('');

      const blocked = uniqueName('prohibido');
      server = await startFakeServer([blocked]);
      server.config.capture_screens = true;
      const exe = agentExecutable(out, 'win-x64');
      const { agent, dataDir } = await wine.prefix.startAgent(exe, server.url, server.key);
      wine.started.push(agent);
      const beat = Date.now() + 90_000;
      while (server.heartbeats.length === 0 && Date.now() < beat)
        await new Promise((resolve) => setTimeout(resolve, 200));
      expect(server.heartbeats.length, await agent.output()).toBeGreaterThan(0);

      const program = wine.prefix.spawn(await windowsProgram(`${blocked}.exe`, {}), [], 'programa');
      wine.started.push(program);
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
      // Encoded on the agent's own captures thread (capture-encoder.ts): it never fell back.
      expect(await agent.output()).not.toContain('hilo aparte');
      // The helper is where the agent wrote it, and no capture file is left behind.
      expect(existsSync(path.join(dataDir, 'screenshot.exe'))).toBe(true);
      expect((await readdir(dataDir)).filter((name) => name.endsWith('.bmp'))).toEqual([]);
    }, 240_000);
  },
);
