import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_TYPES } from '@concurso/shared';
import { agentTeam, createUser, startContest, startXvfb, type VirtualDisplay } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { startAgent, type AgentHandle } from '../agent/src/agent.js';
import { MESSAGE_WINDOW_TITLE, desktopMessageScreen } from '../agent/src/message-screen.js';
import { cleanUp, ownChildren, tempDir } from '../agent/test/helpers/processes.js';
import { HistoryPage } from './pages/history-page.js';
import { openSignedIn } from './pages/login-page.js';

/**
 * Messages end to end on Linux: a judge writes to a team from the live board in Chromium;
 * the team's real agent, pointed at an Xvfb display (the contestant's screen), shows it as a window
 * «Mensaje de los jueces»; the judge's dialog says it was delivered, and once the contestant closes it
 * (xdotool pressing Enter), seen. Then a message to every team: one machine cannot open a window, one
 * team has no agent; the dialog lists each team (entregado, falló with why, pendiente) and the
 * Bitácora shows each message as ONE row with its receipts, and filters by kind. A failure keeps a
 * screenshot of the display in test-results/ and prints the agents' lines.
 */
describe('a message from the board to a lab screen', () => {
  const bed = useWebTestBed();
  let screen: VirtualDisplay;
  const agents: AgentHandle[] = [];
  // The agents' lines, printed when a journey fails (a window that never appeared says why there).
  const lines: string[] = [];
  const log = (who: string) => (line: string) => lines.push(`${new Date().toISOString()} ${who}: ${line}`);
  let team: { id: number; key: string };
  let contestId: number;
  let adminToken: string;

  beforeAll(async () => {
    // From :110: the agent project's own journey runs at the same time from :90.
    screen = await startXvfb();
  });

  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.stop()));
    await cleanUp();
    screen?.stop();
    bed.server.app.server.closeAllConnections();
  });

  it('shows the judge\u2019s message on the team\u2019s screen, then «entregado» and «visto» on the board', async () => {
    ({ adminToken, contestId } = await startContest(bed.server, 'admin_mensajes'));
    await createUser(bed.server.orm, USER_TYPES.judge, 'juez_mensajes', 'clave-juez');
    team = await agentTeam(bed.server, adminToken, { contestId, name: 'Los Avisados' });
    agents.push(
      await startAgent({
        server: bed.server.url,
        key: team.key,
        dataDir: await tempDir('agent-mensajes-'),
        lister: ownChildren,
        pollMs: 500,
        messageScreen: desktopMessageScreen({ display: screen.display }),
        log: log('Los Avisados'),
      }),
    );

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
      console.error(`líneas de los agentes:\n${lines.join('\n')}`);
      throw err;
    }
  });

  it('lists each team\u2019s receipt (entregado, falló with why, pendiente) and the Bitácora shows the message once, filtered by kind', async () => {
    // A machine whose screen cannot open a window (a display with no X server), and a team without agent.
    const blind = await agentTeam(bed.server, adminToken, { contestId, name: 'Los Sin Pantalla' });
    await agentTeam(bed.server, adminToken, { contestId, name: 'Los Apagados' });
    agents.push(
      await startAgent({
        server: bed.server.url,
        key: blind.key,
        dataDir: await tempDir('agent-mensajes-ciego-'),
        lister: ownChildren,
        pollMs: 500,
        messageScreen: desktopMessageScreen({ display: ':1999' }),
        log: log('Los Sin Pantalla'),
      }),
    );
    const { page } = await openSignedIn(
      bed.browser,
      bed.server.url,
      'juez_mensajes',
      'clave-juez',
      '/homeJuez',
    );
    try {
      await page.getByTestId(`team-row-${blind.id}`).waitFor();
      await page.getByRole('button', { name: 'Mensajes' }).click();
      const dialog = page.getByTestId('messages-dialog');
      await dialog.getByLabel('Para').selectOption('todos');
      await dialog.getByLabel('Mensaje').fill('Atención: quedan 30 minutos. ¿Dudas? ¡Éxito!');
      await dialog.getByRole('button', { name: 'Enviar' }).click();
      const receipts = dialog.locator('[data-testid^="message-receipts-"]').first();
      await expect
        .poll(() => receipts.textContent(), { timeout: 10_000 })
        .toBe('entregado 1/3, visto 0/3, falló 1');
      const teams = dialog.locator('[data-testid^="message-teams-"]').first();
      await teams.getByText('Equipos (3)').click();
      await expect
        .poll(() => teams.locator('li').allTextContents())
        .toEqual([
          expect.stringMatching(/^no se pudo mostrar en Los Sin Pantalla \(.+\): sin sesión gráfica$/),
          'Los Apagados: pendiente',
          'Los Avisados: entregado',
        ]);
      await dialog.getByRole('button', { name: 'Cerrar' }).first().click();

      // The Bitácora: two messages sent, two message rows (not one per team), the receipts folded in.
      const history = new HistoryPage(page);
      await history.openLogFromMenu();
      const messageRows = history.logRows().filter({ hasText: 'Mensaje a ' });
      await expect.poll(() => messageRows.count(), { timeout: 10_000 }).toBe(2);
      expect(await messageRows.first().textContent()).toMatch(
        /Mensaje a Todos los equipos: «Atención: quedan 30 minutos\. ¿Dudas\? ¡Éxito!» — entregado 1\/3, visto 0\/3, falló 1 \(Los Sin Pantalla en .+: sin sesión gráfica\)/,
      );
      expect(await messageRows.last().textContent()).toContain(
        'Mensaje a Equipo Los Avisados: «30 minutos restantes» — entregado 1/1, visto 1/1',
      );
      // By kind: only the messages; only the agents' rows (none here is a message).
      await history.filterKind('Mensajes');
      await expect
        .poll(async () => (await history.logRows().allTextContents()).every((t) => t.includes('Mensaje a ')))
        .toBe(true);
      expect(await history.logRows().count()).toBe(2);
      await history.filterKind('Agentes');
      await expect
        .poll(async () => (await history.logRows().allTextContents()).some((t) => t.includes('Mensaje a ')))
        .toBe(false);
    } catch (err) {
      await screen.screenshot('mensajes-por-equipo');
      console.error(`líneas de los agentes:\n${lines.join('\n')}`);
      throw err;
    }
    // Two agents, a judge's screen and the Bitácora: more than the default minute on a loaded machine.
  }, 120_000);
});
