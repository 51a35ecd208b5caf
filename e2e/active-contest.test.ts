import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { LEVELS, MESSAGES, USER_TYPES } from '@concurso/shared';
import {
  blockProcesses,
  createContest,
  createTeam,
  createUser,
  startWebTestBed,
  type TestServer,
  type WebTestBed,
} from '@concurso/testkit';
import { BoardPage } from './pages/board-page.js';
import { CatalogPage } from './pages/catalog-page.js';
import { ContestProcessesDialogs } from './pages/contest-processes.js';
import { COPY_FROM_LABEL, ContestsPage, MAX_ATTEMPTS_LABEL } from './pages/contests-page.js';
import { LoginPage } from './pages/login-page.js';
import { ProjectorPage } from './pages/projector-page.js';

/**
 * The active contest in a real browser (issue 13): with none, the judge's board and the projector say
 * so in Spanish; 'Activar' on /contests asks what changes and moves the open board and projector to
 * the new contest without a reload; the team and exercise forms start in the active contest and show
 * a row's own contest in edit; the contest form sets the automatic block and copies a blocked set.
 */
describe('active contest in Chromium', () => {
  let bed: WebTestBed;
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let admin: Page;
  let catalog: CatalogPage;
  let contests: ContestsPage;
  let board: BoardPage;
  let boardPage: Page;
  let projector: ProjectorPage;
  let projectorPage: Page;

  async function signedIn(username: string, password: string, landing: string): Promise<Page> {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    const loginPage = new LoginPage(page, server.url);
    await loginPage.open();
    await loginPage.signIn(username, password);
    await page.waitForURL(`${server.url}${landing}`);
    return page;
  }

  beforeAll(async () => {
    bed = await startWebTestBed();
    ({ server, browser } = bed);
    await createUser(server.orm, USER_TYPES.admin, 'admin_activo', 'clave-admin');
    await createUser(server.orm, USER_TYPES.judge, 'juez_activo', 'clave-juez');
    admin = await signedIn('admin_activo', 'clave-admin', '/home');
    catalog = new CatalogPage(admin, server.url);
    contests = new ContestsPage(admin, catalog);
    boardPage = await signedIn('juez_activo', 'clave-juez', '/homeJuez');
    board = new BoardPage(boardPage);
    projectorPage = await boardPage.context().newPage();
    projector = new ProjectorPage(projectorPage, server.url);
  });

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await bed?.close();
  });

  it('says no contest is active on the board and the projector instead of empty tables', async () => {
    await board.connectionState().filter({ hasText: 'Conectado' }).waitFor();
    await boardPage.getByTestId('no-active-contest').getByText(MESSAGES.noActiveContest).waitFor();
    expect(await boardPage.getByText(MESSAGES.noTeams).count()).toBe(0);
    await projector.open();
    await projectorPage.getByTestId('no-active-contest').getByText(MESSAGES.noActiveContest).waitFor();
    expect(await projector.column('basico').count()).toBe(0);
  });

  it('activates another contest after a question; the open board and projector follow it', async () => {
    const current = await createContest(server.orm, '2026-11-21', { active: true });
    const next = await createContest(server.orm, '2027-02-01', { active: false });
    const oldTeam = await createTeam(server.orm, current.id, LEVELS.basico, 'Equipo del 2026B');
    const newTeam = await createTeam(server.orm, next.id, LEVELS.basico, 'Equipo del 2027A');
    // The factories write the database directly (no push): the screens load what is there now.
    await boardPage.reload();
    await board.row(oldTeam.id).waitFor();
    await projector.open();
    await projector.row(oldTeam.id).waitFor();

    await contests.open();
    const currentRow = catalog.row(current.id);
    const nextRow = catalog.row(next.id);
    await contests.activeBadge(currentRow).waitFor();
    expect(await contests.activateButton(currentRow).count()).toBe(0);
    expect(await contests.activeBadge(nextRow).count()).toBe(0);

    const question = await contests.askActivation(nextRow, '2027A');
    expect(await question.textContent()).toContain(
      'Los tableros y los agentes pasarán al concurso 2027A. Dejarán de mostrar el concurso 2026B.',
    );
    await contests.confirmActivation(question);
    await catalog.toast(MESSAGES.processed).waitFor();
    await contests.activeBadge(nextRow).waitFor();
    await contests.activateButton(currentRow).waitFor();
    expect(await contests.activeBadge(currentRow).count()).toBe(0);

    // No reload: the server's board.reset makes both screens refetch the active contest.
    await board.row(newTeam.id).waitFor({ timeout: 5_000 });
    await board.row(oldTeam.id).waitFor({ state: 'detached' });
    expect(await boardPage.getByTestId('current-contest').textContent()).toContain('2027A');
    await projector.row(newTeam.id).waitFor({ timeout: 5_000 });
    expect(await projectorPage.getByRole('heading', { level: 1 }).textContent()).toBe('Concurso 2027A');
  });

  it('starts a new team and exercise in the active contest, registers one in a chosen contest, shows a team its own in edit', async () => {
    await catalog.open('/teams', 'Información de los equipos');
    let dialog = await catalog.openCreate('Registrar equipo', 'Registrar Equipo');
    const contest = dialog.getByLabel('Concurso');
    expect(await contest.locator('option:checked').textContent()).toBe('2027A');
    // Every contest, newest first, after the empty choice.
    expect(await contest.locator('option').allTextContents()).toEqual([
      'Seleccione el concurso...',
      '2027A',
      '2026B',
    ]);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // A team registered in another contest than the active one goes there.
    dialog = await catalog.openCreate('Registrar equipo', 'Registrar Equipo');
    await dialog.getByLabel('Nombre').fill('Equipo Elegido');
    await dialog.getByLabel('Coach').selectOption({ index: 1 });
    await dialog.getByLabel('Nivel').selectOption({ label: 'Básico' });
    await dialog.getByLabel('Concurso').selectOption({ label: '2026B' });
    await catalog.save(dialog);
    expect(await catalog.rowWith('Equipo Elegido').textContent()).toContain('2026B');

    dialog = await catalog.openEdit(catalog.rowWith('Equipo del 2026B'), 'Editar Equipo');
    expect(await dialog.getByLabel('Concurso').locator('option:checked').textContent()).toBe('2026B');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();

    await catalog.open('/exercises', 'Información de los ejercicios por concurso');
    dialog = await catalog.openCreate('Registrar ejercicios', 'Registrar ejercicios');
    expect(await dialog.getByLabel('Concurso').locator('option:checked').textContent()).toBe('2027A');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
  });

  it('registers a contest with an automatic block and a copied blocked set; edits and clears the block', async () => {
    const source = await createContest(server.orm, '2025-03-01', { active: false });
    await blockProcesses(server.orm, source.id, ['Discord.exe']);

    await contests.open();
    let dialog = await catalog.openCreate('Registrar concurso', 'Registrar Concurso');
    await dialog.getByLabel('Fecha').fill('2027-08-01');
    await dialog.getByLabel(MAX_ATTEMPTS_LABEL).fill('4');
    await dialog.getByLabel(COPY_FROM_LABEL).selectOption({ label: '2025A' });
    await catalog.save(dialog);
    const id = await catalog.idOf('2027B');
    const row = catalog.row(id);
    expect(await contests.maxAttempts(row).textContent()).toBe('4');
    // Registering never changes the active contest (only the first one becomes active).
    expect(await contests.activeBadge(row).count()).toBe(0);

    const view = await new ContestProcessesDialogs(admin).openView(row);
    await view.getByText('Discord.exe').waitFor();
    await view.getByRole('button', { name: 'Cerrar' }).click();
    await view.waitFor({ state: 'hidden' });

    dialog = await catalog.openEdit(row, 'Editar Concurso');
    expect(await dialog.getByLabel(MAX_ATTEMPTS_LABEL).inputValue()).toBe('4');
    expect(await dialog.getByLabel(COPY_FROM_LABEL).count()).toBe(0);
    await dialog.getByLabel(MAX_ATTEMPTS_LABEL).fill('');
    await catalog.save(dialog);
    await catalog.toast('Guardado').waitFor();
    await expect.poll(() => contests.maxAttempts(row).textContent()).toBe('');
  });
});
