import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messagesSchema } from '@concurso/shared';
import { agentTeam, callAs, startContest, startTestServer, type TestServer } from '@concurso/testkit';
import { repoRoot } from '@concurso/testkit/environment';
import { startAgent, type AgentHandle } from '../src/agent.js';
import { MESSAGE_WINDOW_TITLE, desktopMessageScreen } from '../src/message-screen.js';
import { cleanUp, ownChildren, tempDir } from './helpers/processes.js';

const run = promisify(execFile);

/** A display number no X server uses here. */
function freeDisplay(): string {
  for (let n = 90; n < 200; n++)
    if (!existsSync(`/tmp/.X11-unix/X${n}`) && !existsSync(`/tmp/.X${n}-lock`)) return `:${n}`;
  throw new Error('no free X display between :90 and :199');
}

/**
 * Issue 24, messages on the lab machine's screen, on Linux: Xvfb on a free display stands for the
 * contestant's session; the real agent (pointed at that display) shows a judge's message as a window
 * titled «Mensaje de los jueces» (zenity) and reports it `entregado`; closing it (xdotool, as a
 * contestant pressing Enter) reports `visto`. A failure keeps a screenshot of the display in
 * test-results/ (xwd).
 */
describe('a message on the machine screen (issue 24, Linux)', () => {
  let xvfb: ChildProcess;
  let display: string;
  let server: TestServer;
  let agent: AgentHandle | undefined;
  let judgeToken: string;
  let team: { id: number; key: string };

  const x = (args: string[]) =>
    run('xdotool', args, { env: { ...process.env, DISPLAY: display }, timeout: 5_000 });

  beforeAll(async () => {
    display = freeDisplay();
    xvfb = spawn('Xvfb', [display, '-screen', '0', '1024x768x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
    const socket = `/tmp/.X11-unix/X${display.slice(1)}`;
    for (let i = 0; i < 50 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 100));
    server = await startTestServer();
    let contestId: number;
    ({ adminToken: judgeToken, contestId } = await startContest(server, 'admin_mensajes_pantalla'));
    team = await agentTeam(server, judgeToken, { contestId, name: 'Los de la Pantalla' });
  }, 120_000);

  afterAll(async () => {
    await agent?.stop();
    await cleanUp();
    xvfb?.kill('SIGTERM');
    server?.app.server.closeAllConnections();
    await server?.close();
  }, 60_000);

  it('shows the message as a window, reports it delivered, and seen once closed', async () => {
    agent = await startAgent({
      server: server.url,
      key: team.key,
      dataDir: await tempDir('agent-messages-'),
      lister: ownChildren,
      pollMs: 500,
      messageScreen: desktopMessageScreen({ display }),
      log: () => undefined,
    });
    const connected = Date.now() + 10_000;
    while (!agent.stats.pushConnected && Date.now() < connected) await new Promise((r) => setTimeout(r, 20));

    const sent = await callAs(server.app, judgeToken, '/api/sendMessage', {
      target: 'equipo',
      id: team.id,
      text: 'Equipo 12: cierre el navegador',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const receipt = async () =>
      messagesSchema.parse((await callAs(server.app, judgeToken, '/api/messages')).body.data).rows[0]!;

    let windowId = '';
    try {
      const deadline = Date.now() + 10_000;
      while (!windowId && Date.now() < deadline) {
        windowId =
          (await x(['search', '--name', MESSAGE_WINDOW_TITLE]).catch(() => ({ stdout: '' }))).stdout
            .trim()
            .split('\n')[0] ?? '';
        if (!windowId) await new Promise((r) => setTimeout(r, 100));
      }
      expect(windowId, 'la ventana del mensaje en la pantalla').not.toBe('');
      await expect.poll(async () => (await receipt()).delivered, { timeout: 5_000 }).toBe(1);
      expect((await receipt()).seen).toBe(0);

      // The contestant closes it.
      await x(['windowfocus', '--sync', windowId, 'key', '--clearmodifiers', 'Return']);
      await expect.poll(async () => (await receipt()).seen, { timeout: 5_000 }).toBe(1);
    } catch (err) {
      const dir = path.join(repoRoot, 'test-results');
      await mkdir(dir, { recursive: true });
      await run('xwd', [
        '-root',
        '-display',
        display,
        '-out',
        path.join(dir, 'mensaje-en-pantalla.xwd'),
      ]).catch(() => undefined);
      throw err;
    }
  }, 60_000);
});
