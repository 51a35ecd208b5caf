import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { LEVELS, MESSAGES, USER_TYPES } from '@concurso/shared';
import { createContest, createTeam, createUser } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { BoardPage } from './pages/board-page.js';
import { LoginPage, openSignedIn } from './pages/login-page.js';
import { ProjectorPage } from './pages/projector-page.js';

const JUDGE = { username: 'juez_pestanas', password: 'Tablero-Vivo-2026' };

/**
 * A session that ends in another tab: two tabs of one browser (one localStorage, one
 * token); 'Cerrar Sesión' in the first. The second must land on the login screen saying
 * 'Su sesión terminó. Inicie sesión de nuevo.', not fail with a generic error or stay on 'Sin conexión'.
 */
describe('a session ended in another tab', () => {
  const bed = useWebTestBed();
  let context: BrowserContext | undefined;
  let team: { id: number };

  beforeAll(async () => {
    await createUser(bed.server.orm, USER_TYPES.judge, JUDGE.username, JUDGE.password);
    const contest = await createContest(bed.server.orm);
    team = await createTeam(bed.server.orm, contest.id, LEVELS.basico, 'Los Pestañeos');
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  /** A new browser context whose first tab signed in as the judge and shows the board. */
  async function signedInTab(): Promise<{ page: Page; board: BoardPage }> {
    const signedIn = await openSignedIn(
      bed.browser,
      bed.server.url,
      JUDGE.username,
      JUDGE.password,
      '/homeJuez',
    );
    context = signedIn.context;
    const { page } = signedIn;
    const board = new BoardPage(page);
    await board.row(team.id).waitFor();
    return { page, board };
  }

  it("'Bloquear' in a tab whose session was closed in another goes to the login screen with the notice (REST 401)", async () => {
    const first = await signedInTab();
    const page = await context!.newPage();
    // This tab's push channel is cut, so only the block's 401 can tell it the session ended (the socket
    // path has its own test below).
    await page.routeWebSocket(/\/socket\.io\//, (ws) => ws.close());
    await page.route(/\/socket\.io\//, (route) => route.abort());
    const second = new BoardPage(page);
    await page.goto(`${bed.server.url}/homeJuez`);
    await second.row(team.id).waitFor();
    expect(await second.toggleButton(team.id).textContent()).toBe('Bloquear');
    expect(await second.connectionState().getAttribute('data-state')).toBe('reconectando');

    await first.board.signOut();
    await first.page.waitForURL(`${bed.server.url}/`);
    // A deliberate logout is not announced as an ended session.
    expect(await new LoginPage(first.page, bed.server.url).sessionEndedNotice().count()).toBe(0);

    await second.toggleAndConfirm(team.id);
    await page.waitForURL(`${bed.server.url}/`);
    const login = new LoginPage(page, bed.server.url);
    expect(await login.sessionEndedNotice().textContent()).toBe(MESSAGES.sessionEnded);
    await page.getByRole('button', { name: 'Iniciar Sesión' }).waitFor();
    // Neither the block's generic failure nor any other dialog follows it there.
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(await page.getByText(MESSAGES.statusChangeFailed).count()).toBe(0);
    // Nothing was changed by the refused call.
    const rows = await bed.server.orm.em
      .fork()
      .execute<Array<{ status: number }>>('select status_team_id as status from teams where id = ?', [
        team.id,
      ]);
    expect(Number(rows[0]!.status)).toBe(1);

    // Signing in again works and clears the notice.
    await login.signIn(JUDGE.username, JUDGE.password);
    await page.waitForURL(`${bed.server.url}/homeJuez`);
    await second.row(team.id).waitFor();
    expect(await login.sessionEndedNotice().count()).toBe(0);
  });

  it('tabs on the board and the projector go to the login screen by themselves (push channel)', async () => {
    const first = await signedInTab();
    const boardTab = await context!.newPage();
    const board = new BoardPage(boardTab);
    await boardTab.goto(`${bed.server.url}/homeJuez`);
    await board.connectionState().filter({ hasText: 'Conectado' }).waitFor();
    const projectorTab = await context!.newPage();
    await new ProjectorPage(projectorTab, bed.server.url).open();

    await first.board.signOut();
    await first.page.waitForURL(`${bed.server.url}/`);

    // No click: the socket learns it (session.ended, or its reconnect refused as 'unauthorized').
    for (const page of [boardTab, projectorTab]) {
      await page.waitForURL(`${bed.server.url}/`, { timeout: 10_000 });
      const notice = new LoginPage(page, bed.server.url).sessionEndedNotice();
      expect(await notice.textContent()).toBe(MESSAGES.sessionEnded);
    }
  });
});
