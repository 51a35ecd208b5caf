import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_TYPES } from '@concurso/shared';
import { agentTeam, createUser, startContest, startXvfb, type VirtualDisplay } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { startAgent, type AgentHandle } from '../agent/src/agent.js';
import { MESSAGE_WINDOW_TITLE, desktopMessageScreen } from '../agent/src/message-screen.js';
import { cleanUp, ownChildren, tempDir } from '../agent/test/helpers/processes.js';
import { openSignedIn } from './pages/login-page.js';

/**
 * Issue 24, messages end to end on Linux: a judge writes to a team from the live board in Chromium;
 * the team's real agent, pointed at an Xvfb display (the contestant's screen), shows it as a window
 * «Mensaje de los jueces»; the judge's dialog says it was delivered, and once the contestant closes it
 * (xdotool pressing Enter), seen. A failure keeps a screenshot of the display in test-results/.
 */
describe('a message from the board to a lab screen (issue 24)', () => {
  const bed = useWebTestBed();
  let screen: VirtualDisplay;
  let agent: AgentHandle | undefined;

  beforeAll(async () => {
    // From :110: the agent project's own journey runs at the same time from :90.
    screen = await startXvfb(110);
  });

  afterAll(async () => {
    await agent?.stop();
    await cleanUp();
    screen?.stop();
    bed.server.app.server.closeAllConnections();
  });

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
      messageScreen: desktopMessageScreen({ display: screen.display }),
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
      const windowId = await screen.waitForWindow(MESSAGE_WINDOW_TITLE, 10_000);
      expect(windowId, 'la ventana del mensaje en la pantalla del equipo').not.toBe('');
      await expect.poll(() => receipts.textContent(), { timeout: 5_000 }).toBe('entregado 1/1, visto 0/1');
      await screen.xdotool(['windowfocus', '--sync', windowId, 'key', '--clearmodifiers', 'Return']);
      await expect.poll(() => receipts.textContent(), { timeout: 5_000 }).toBe('entregado 1/1, visto 1/1');
    } catch (err) {
      await screen.screenshot('mensaje-desde-el-tablero');
      throw err;
    }
  });
});
