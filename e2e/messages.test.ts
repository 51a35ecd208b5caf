import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { USER_TYPES } from '@concurso/shared';
import { agentTeam, createUser, startContest, startXvfb, type VirtualDisplay } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { startAgent, type AgentHandle } from '../agent/src/agent.js';
import { MESSAGE_WINDOW_TITLE, desktopMessageScreen } from '../agent/src/message-screen.js';
import { cleanUp, spawnedByTest, tempDir } from '../agent/test/helpers/processes.js';
import { HistoryPage } from './pages/history-page.js';
import { AGENT_STEP_MS, SCREEN_MS } from './pages/loaded-machine.js';
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
  // The judge's board: the second journey goes on on the first's page (one sign-in, one browser context).
  let page: Page;
  /** The judge's dialog's entry of the message whose text is `text` (newest first, one per message). */
  const sentMessage = (text: string) =>
    page
      .getByTestId('messages-dialog')
      .getByTestId(/^message-\d+$/)
      .filter({ hasText: text });

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
        // What this test started (nothing: Chromium and Xvfb are no program of the team's machine).
        lister: spawnedByTest(),
        pollMs: 500,
        messageScreen: desktopMessageScreen({ display: screen.display }),
        log: log('Los Avisados'),
      }),
    );

    ({ page } = await openSignedIn(bed.browser, bed.server.url, 'juez_mensajes', 'clave-juez', '/homeJuez', {
      timeoutMs: SCREEN_MS,
    }));
    await page.getByTestId(`team-row-${team.id}`).waitFor();
    await page.getByRole('button', { name: 'Mensajes' }).click();
    const dialog = page.getByTestId('messages-dialog');
    await dialog.getByLabel('Para').selectOption(`equipo:${team.id}`);
    await dialog.getByLabel('Mensaje').fill('30 minutos restantes');
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    const receipts = sentMessage('30 minutos restantes').locator('[data-testid^="message-receipts-"]');
    await receipts.waitFor();

    try {
      const windowId = await screen.waitForWindow(MESSAGE_WINDOW_TITLE, AGENT_STEP_MS);
      expect(windowId, 'la ventana del mensaje en la pantalla del equipo').not.toBe('');
      await expect
        .poll(() => receipts.textContent(), {
          timeout: AGENT_STEP_MS,
          message: 'el tablero dice entregado',
        })
        .toBe('entregado 1/1, visto 0/1');
      await screen.xdotool(['windowfocus', '--sync', windowId, 'key', '--clearmodifiers', 'Return']);
      await expect
        .poll(() => receipts.textContent(), {
          timeout: AGENT_STEP_MS,
          message: 'el tablero dice visto',
        })
        .toBe('entregado 1/1, visto 1/1');
    } catch (err) {
      await screen.screenshot('mensaje-desde-el-tablero');
      console.error(`líneas de los agentes:\n${lines.join('\n')}`);
      throw err;
    }
    // Sign-in, the board's first load, an agent's start and a window on Xvfb: on a loaded machine
    // (load average 12-14 on 2 cores) each took up to tens of seconds.
  }, 180_000);

  it('lists each team\u2019s receipt (entregado, falló with why, pendiente) and the Bitácora shows the message once, filtered by kind', async () => {
    // A machine whose screen cannot open a window (a display with no X server), and a team without agent.
    const blind = await agentTeam(bed.server, adminToken, { contestId, name: 'Los Sin Pantalla' });
    await agentTeam(bed.server, adminToken, { contestId, name: 'Los Apagados' });
    agents.push(
      await startAgent({
        server: bed.server.url,
        key: blind.key,
        dataDir: await tempDir('agent-mensajes-ciego-'),
        lister: spawnedByTest(),
        pollMs: 500,
        messageScreen: desktopMessageScreen({ display: ':1999' }),
        log: log('Los Sin Pantalla'),
      }),
    );
    try {
      // The board read its teams before these two existed (they are made in the database): read again.
      await page.reload();
      await page.getByTestId(`team-row-${blind.id}`).waitFor();
      await page.getByRole('button', { name: 'Mensajes' }).click();
      const dialog = page.getByTestId('messages-dialog');
      await dialog.getByLabel('Para').selectOption('todos');
      await dialog.getByLabel('Mensaje').fill('Atención: quedan 30 minutos. ¿Dudas? ¡Éxito!');
      await dialog.getByRole('button', { name: 'Enviar' }).click();
      // This message's own entry (the list shows the first one too, above it until this one arrives).
      const sent = sentMessage('Atención: quedan 30 minutos.');
      const receipts = sent.locator('[data-testid^="message-receipts-"]');
      await expect
        .poll(() => receipts.textContent(), {
          timeout: AGENT_STEP_MS,
          message: 'los recibos de los 3 equipos',
        })
        .toBe('entregado 1/3, visto 0/3, falló 1');
      const teams = sent.locator('[data-testid^="message-teams-"]');
      await teams.getByText('Equipos (3)').click();
      await expect
        .poll(() => teams.locator('li').allTextContents(), {
          timeout: SCREEN_MS,
        })
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
      await expect.poll(() => messageRows.count(), { timeout: SCREEN_MS }).toBe(2);
      expect(await messageRows.first().textContent()).toMatch(
        /Mensaje a Todos los equipos: «Atención: quedan 30 minutos\. ¿Dudas\? ¡Éxito!» — entregado 1\/3, visto 0\/3, falló 1 \(Los Sin Pantalla en .+: sin sesión gráfica\)/,
      );
      expect(await messageRows.last().textContent()).toContain(
        'Mensaje a Equipo Los Avisados: «30 minutos restantes» — entregado 1/1, visto 1/1',
      );
      // By kind: only the messages; only the agents' rows (none here is a message).
      await history.filterKind('Mensajes');
      await expect
        .poll(() => history.logRows().allTextContents(), { timeout: SCREEN_MS })
        .toEqual([
          expect.stringContaining('Mensaje a Todos los equipos: '),
          expect.stringContaining('Mensaje a Equipo Los Avisados: '),
        ]);
      await history.filterKind('Agentes');
      await expect
        .poll(
          async () => {
            const rows = await history.logRows().allTextContents();
            return rows.length > 0 && !rows.some((t) => t.includes('Mensaje a '));
          },
          { timeout: SCREEN_MS, message: 'solo filas de los agentes' },
        )
        .toBe(true);
    } catch (err) {
      await screen.screenshot('mensajes-por-equipo');
      console.error(`líneas de los agentes:\n${lines.join('\n')}`);
      throw err;
    }
    // An agent's start, the board read again, two dialogs and the Bitácora with its filters: on a loaded
    // machine each took up to tens of seconds.
  }, 180_000);
});
