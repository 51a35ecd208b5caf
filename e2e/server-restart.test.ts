import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { LEVELS, USER_TYPES } from '@concurso/shared';
import {
  type Deployment,
  type HttpApi,
  launchChromium,
  type ServerProcess,
  startDeployment,
} from '@concurso/testkit';
import { BoardPage } from './pages/board-page.js';
import { LoginPage } from './pages/login-page.js';
import { ProjectorPage } from './pages/projector-page.js';

const JUDGE = { name: 'Mtra. Elena Paredes', username: 'juez_reinicio', password: 'Pizarra-Viva-2026' };
/** socket.io's DISCONNECT packet of the main namespace, as a WebSocket frame ('4' message, '1' disconnect). */
const SERVER_DISCONNECT_FRAME = '41';

/**
 * Boards survive a restart of their server (docs/design.md section 6): a judge's board (/homeJuez)
 * and the projector (/proyector) stay open in Chromium while the real server process is stopped with
 * SIGTERM, then with SIGKILL, and started again on the same port. After each restart a block made
 * through the API as an admin shows on both screens without a reload: they reconnected by themselves
 * and refetched their snapshot.
 */
describe('boards across a server restart', () => {
  let deployment: Deployment;
  /** The one real server process, as `npm start` runs it (no Redis). */
  let server: ServerProcess;
  let admin: HttpApi;
  let browser: Browser;
  let context: BrowserContext;
  let boardTab: Page;
  let projectorTab: Page;
  let board: BoardPage;
  let projector: ProjectorPage;
  /** WebSocket frames the two tabs received from the server. */
  const frames: string[] = [];
  const teams: Array<{ id: number; name: string }> = [];
  /** What the tabs wrote to their consoles and what their WebSockets did, for a failure's message. */
  const pageLog: string[] = [];
  /** Keeps every frame of `tab`'s WebSockets, from before the tab opens any, and its console. */
  const recordFrames = (tab: Page) => {
    tab.on('websocket', (ws) => {
      pageLog.push(`${new Date().toISOString()} websocket ${ws.url()}`);
      ws.on('framereceived', ({ payload }) => frames.push(String(payload)));
      ws.on('socketerror', (error) => pageLog.push(`${new Date().toISOString()} websocket error ${error}`));
      ws.on('close', () => pageLog.push(`${new Date().toISOString()} websocket closed`));
    });
    tab.on('console', (message) =>
      pageLog.push(`${new Date().toISOString()} ${message.type()} ${message.text()}`),
    );
  };
  /**
   * Waits up to `timeout` ms for `tab`'s 'Conectado'; a timeout says what the screen showed instead,
   * what the tab logged and what the server wrote, so a failure on a loaded machine can be read.
   */
  const waitConnected = async (tab: Page, timeout: number) => {
    const state = tab.getByTestId('connection-state');
    try {
      await state.filter({ hasText: 'Conectado' }).waitFor({ timeout });
    } catch (error) {
      const shown = await state.textContent({ timeout: 1_000 }).catch(() => '(sin indicador)');
      throw new Error(
        `${tab.url()} no mostró «Conectado» en ${timeout} ms; mostraba «${shown}».\n` +
          `Página:\n${pageLog.slice(-30).join('\n')}\nServidor:\n${server.output(40)}`,
        { cause: error },
      );
    }
  };

  beforeAll(async () => {
    // Its JWT secret stays the same across restarts: tokens issued before one stay valid after it.
    deployment = await startDeployment();
    server = deployment.servers[0]!;
    admin = await deployment.admin();
    await admin.createContest();
    const coach = await admin.createCoach('Dr. Tomás Ibarra');
    for (const name of ['Los Resilientes', 'Reinicio Limpio']) {
      teams.push(await admin.createTeam(name, LEVELS.intermedio, coach));
    }
    await admin.call('/api/createUser', { ...JUDGE, types_users_id: USER_TYPES.judge });

    browser = await launchChromium();
    // One browser, two tabs: the judge's board and the projector the judge opened next to it.
    context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
    boardTab = await context.newPage();
    recordFrames(boardTab);
    const login = new LoginPage(boardTab, server.url);
    await login.open();
    await login.signIn(JUDGE.username, JUDGE.password);
    await boardTab.waitForURL(`${server.url}/homeJuez`);
    board = new BoardPage(boardTab);
    await waitConnected(boardTab, 30_000);
    projectorTab = await context.newPage();
    recordFrames(projectorTab);
    projector = new ProjectorPage(projectorTab, server.url);
    await projector.open();
    for (const team of teams) {
      await board.row(team.id).waitFor();
      await projector.row(team.id).waitFor();
    }
    for (const tab of [boardTab, projectorTab]) {
      // Gone if the tab reloads: proof the screens recovered by themselves.
      await tab.evaluate(() => Object.assign(window, { sinRecargar: true }));
    }
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await deployment?.stop();
  });

  it.each([
    ['SIGTERM', 0],
    ['SIGKILL', 1],
  ] as const)(
    'after %s and a start on the same port, both screens show a block made through the API',
    async (signal, index) => {
      const team = teams[index]!;
      expect(await board.toggleButton(team.id).textContent()).toBe('Bloquear');
      frames.length = 0;

      await server.kill(signal);
      // Both screens know the server is gone and are trying again: not a final 'Sin conexión'.
      for (const tab of [boardTab, projectorTab]) {
        await tab
          .getByTestId('connection-state')
          .filter({ hasText: 'Reconectando' })
          .waitFor({ timeout: 5_000 });
      }

      await server.start();
      await admin.call(`/api/descalificarTeam/${team.id}`);

      // The push may have been sent before a screen was back: its snapshot refetch brings the block then.
      await board.toggleButton(team.id).filter({ hasText: 'Desbloquear' }).waitFor({ timeout: 20_000 });
      await projector.row(team.id).getByText('DESCALIFICADO').waitFor({ timeout: 20_000 });
      expect(await projector.row(team.id).getAttribute('data-status')).toBe('2');
      for (const tab of [boardTab, projectorTab]) {
        await waitConnected(tab, 20_000);
        expect(await tab.evaluate(() => (window as { sinRecargar?: boolean }).sinRecargar)).toBe(true);
      }
      // A graceful stop ends the connections at the transport, never with socket.io's server disconnect,
      // which tells every socket.io client (agents and scripts too, not only this web) not to reconnect.
      expect(frames).not.toContain(SERVER_DISCONNECT_FRAME);
    },
    120_000,
  );
});
