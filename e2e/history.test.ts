import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { LEVELS, USER_TYPES } from '@concurso/shared';
import {
  agentTeam,
  createUser,
  sendAttempt,
  startContest,
  startWebTestBed,
  type WebTestBed,
} from '@concurso/testkit';
import { BoardPage } from './pages/board-page.js';
import { HistoryPage } from './pages/history-page.js';
import { LoginPage } from './pages/login-page.js';

/**
 * History on screen in Chromium (issue 13): a judge blocks a team, its 'Historial' says who did it and
 * grows while open as the agent reports; /bitacora, reached from the judge's menu, lists the contest's
 * log, follows the boards' pushes, filters by process and exports 'bitacora.xlsx'.
 */
describe('history on screen in Chromium (issue 13)', () => {
  let bed: WebTestBed;
  let context: BrowserContext;
  let page: Page;
  let board: BoardPage;
  let history: HistoryPage;
  let team: { id: number; name: string; key: string };

  beforeAll(async () => {
    bed = await startWebTestBed();
    await createUser(bed.server.orm, USER_TYPES.judge, 'juez_historial', 'clave-historial');
    const { adminToken, contestId } = await startContest(bed.server, 'admin_historial');
    team = await agentTeam(bed.server, adminToken, {
      contestId,
      levelsId: LEVELS.intermedio,
      name: 'Los Punteros',
      blocked: ['chrome.exe'],
    });
    expect((await sendAttempt(bed.server.url, team.key, 'chrome.exe')).status).toBe(200);
    context = await bed.browser.newContext({ acceptDownloads: true });
    page = await context.newPage();
    const login = new LoginPage(page, bed.server.url);
    await login.open();
    await login.signIn('juez_historial', 'clave-historial');
    await page.waitForURL(`${bed.server.url}/homeJuez`);
    board = new BoardPage(page);
    history = new HistoryPage(page);
  });
  afterAll(async () => {
    await context?.close();
    await bed?.close();
  });

  it("shows a team's history after a block, with the judge, and grows it while open", async () => {
    await board.toggleAndConfirm(team.id);
    await board.toggleButton(team.id).filter({ hasText: 'Desbloquear' }).waitFor();

    await history.openTeamHistory(team.id);
    await history.dialog().getByText('Historial del equipo: Los Punteros').waitFor();
    await history
      .statusRows()
      .filter({ hasText: 'Activo → Descalificado' })
      .filter({ hasText: 'Usuario juez_historial' })
      .waitFor();
    await expect.poll(() => history.attemptRows().count()).toBe(1);
    expect(await history.attemptRows().first().textContent()).toContain('chrome.exe');

    // The agent reports again while the dialog is open: the pushed row refetches the history.
    expect((await sendAttempt(bed.server.url, team.key, 'chrome.exe')).status).toBe(200);
    await expect.poll(() => history.attemptRows().count(), { timeout: 10_000 }).toBe(2);
    await history.closeDialog();
  });

  it("lists the contest's log at /bitacora from the judge's menu, live, filtered and exported", async () => {
    await history.openLogFromMenu();
    expect(page.url()).toBe(`${bed.server.url}/bitacora`);
    await expect.poll(() => history.logRows().count()).toBe(3);
    // Two attempts and the judge's block (their order within one second is the server's tie rule).
    const texts = await history.logRows().allTextContents();
    expect(texts.filter((text) => text.includes('Intento'))).toHaveLength(2);
    expect(texts.filter((text) => text.includes('Cambio de estatus'))).toEqual([
      expect.stringContaining('Usuario juez_historial'),
    ]);

    // A new attempt reaches the log through the boards' push.
    expect((await sendAttempt(bed.server.url, team.key, 'chrome.exe')).status).toBe(200);
    await expect.poll(() => history.logRows().count(), { timeout: 10_000 }).toBe(4);

    await history.filterProcess('chrome.exe');
    await expect
      .poll(async () => (await history.logRows().allTextContents()).join('\n'))
      .not.toContain('Cambio de estatus');
    expect(await history.logRows().count()).toBe(3);

    expect((await history.exportExcel()).suggestedFilename()).toBe('bitacora.xlsx');
  });
});
