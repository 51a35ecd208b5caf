import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_TYPES } from '@concurso/shared';
import { agentTeam, createUser, startContest } from '@concurso/testkit';
import { repoRoot } from '@concurso/testkit/environment';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { startAgent, type AgentHandle } from '../agent/src/agent.js';
import { MESSAGE_WINDOW_TITLE, desktopMessageScreen } from '../agent/src/message-screen.js';
import { cleanUp, ownChildren, tempDir } from '../agent/test/helpers/processes.js';
import { openSignedIn } from './pages/login-page.js';

const run = promisify(execFile);

/** A display number no X server uses here. */
function freeDisplay(): string {
  for (let n = 110; n < 200; n++)
    if (!existsSync(`/tmp/.X11-unix/X${n}`) && !existsSync(`/tmp/.X${n}-lock`)) return `:${n}`;
  throw new Error('no free X display between :110 and :199');
}

/**
 * Issue 24, messages end to end on Linux: a judge writes to a team from the live board in Chromium;
 * the team's real agent, pointed at an Xvfb display (the contestant's screen), shows it as a window
 * «Mensaje de los jueces»; the judge's dialog says it was delivered, and once the contestant closes it
 * (xdotool pressing Enter), seen. A failure keeps a screenshot of the display in test-results/.
 */
describe('a message from the board to a lab screen (issue 24)', () => {
  const bed = useWebTestBed();
  let xvfb: ChildProcess;
  let display: string;
  let agent: AgentHandle | undefined;

  beforeAll(async () => {
    display = freeDisplay();
    xvfb = spawn('Xvfb', [display, '-screen', '0', '1024x768x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
    const socket = `/tmp/.X11-unix/X${display.slice(1)}`;
    for (let i = 0; i < 50 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 100));
  });

  afterAll(async () => {
    await agent?.stop();
    await cleanUp();
    xvfb?.kill('SIGTERM');
    bed.server.app.server.closeAllConnections();
  });

  const x = (args: string[]) =>
    run('xdotool', args, { env: { ...process.env, DISPLAY: display }, timeout: 5_000 });

  it('shows the judge\u2019s message on the team\u2019s screen, then «entregado» and «visto» on the board', async () => {
    const { adminToken, contestId } = await startContest(bed.server, 'admin_mensajes');
    await createUser(bed.server.orm, USER_TYPES.judge, 'juez_mensajes', 'clave-juez');
    const team = await agentTeam(bed.server, adminToken, { contestId, name: 'Los Avisados' });
    agent = await startAgent({
      server: bed.server.url,
      key: team.key,
      dataDir: await tempDir('agent-mensajes-'),
      lister: ownChildren,
      pollMs: 500,
      messageScreen: desktopMessageScreen({ display }),
      log: () => undefined,
    });

    const { page } = await openSignedIn(
      bed.browser,
      bed.server.url,
      'juez_mensajes',
      'clave-juez',
      '/homeJuez',
    );
    await page.getByTestId(`team-row-${team.id}`).waitFor();
    await page.getByRole('button', { name: 'Mensajes' }).click();
    const dialog = page.getByTestId('messages-dialog');
    await dialog.getByLabel('Para').selectOption(`equipo:${team.id}`);
    await dialog.getByLabel('Mensaje').fill('30 minutos restantes');
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    const receipts = dialog.locator('[data-testid^="message-receipts-"]').first();
    await receipts.waitFor();

    try {
      let windowId = '';
      const deadline = Date.now() + 10_000;
      while (!windowId && Date.now() < deadline) {
        windowId =
          (await x(['search', '--name', MESSAGE_WINDOW_TITLE]).catch(() => ({ stdout: '' }))).stdout
            .trim()
            .split('\n')[0] ?? '';
        if (!windowId) await new Promise((r) => setTimeout(r, 100));
      }
      expect(windowId, 'la ventana del mensaje en la pantalla del equipo').not.toBe('');
      await expect.poll(() => receipts.textContent(), { timeout: 5_000 }).toBe('entregado 1/1, visto 0/1');
      await x(['windowfocus', '--sync', windowId, 'key', '--clearmodifiers', 'Return']);
      await expect.poll(() => receipts.textContent(), { timeout: 5_000 }).toBe('entregado 1/1, visto 1/1');
    } catch (err) {
      const dir = path.join(repoRoot, 'test-results');
      await mkdir(dir, { recursive: true });
      await run('xwd', [
        '-root',
        '-display',
        display,
        '-out',
        path.join(dir, 'mensaje-desde-el-tablero.xwd'),
      ]).catch(() => undefined);
      throw err;
    }
  });
});
