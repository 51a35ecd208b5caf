import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { LEVELS, MESSAGES, USER_TYPES } from '@concurso/shared';
import { HttpApi, blockProcesses, createContest, createTeam, createUser } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { BoardPage } from './pages/board-page.js';
import { CatalogPage } from './pages/catalog-page.js';
import { ContestProcessesDialogs } from './pages/contest-processes.js';
import { COPY_FROM_LABEL, ContestsPage, MAX_ATTEMPTS_LABEL } from './pages/contests-page.js';
import { openSignedIn } from './pages/login-page.js';
import { ProjectorPage } from './pages/projector-page.js';

/**
 * The active contest in a real browser: with none, the judge's board and the projector say
 * so in Spanish; the team and exercise forms start in the active contest and show a row's own contest
 * in edit; the contest form sets the automatic block and copies a blocked set. ('Activar' on /contests
 * and the open screens following it are contest-life.test.ts's first step.)
 */
describe('active contest in Chromium', () => {
  const bed = useWebTestBed();
  let api: HttpApi;
  const contexts: BrowserContext[] = [];
  let admin: Page;
  let catalog: CatalogPage;
  let contests: ContestsPage;
  let board: BoardPage;
  let boardPage: Page;
  let projector: ProjectorPage;
  let projectorPage: Page;

  async function signedIn(username: string, password: string, landing: string): Promise<Page> {
    const { page, context } = await openSignedIn(bed.browser, bed.server.url, username, password, landing);
    contexts.push(context);
    return page;
  }

  beforeAll(async () => {
    await createUser(bed.server.orm, USER_TYPES.admin, 'admin_activo', 'clave-admin');
    await createUser(bed.server.orm, USER_TYPES.judge, 'juez_activo', 'clave-juez');
    api = await HttpApi.signIn(bed.server.url, 'admin_activo', 'clave-admin');
    admin = await signedIn('admin_activo', 'clave-admin', '/home');
    catalog = new CatalogPage(admin, bed.server.url);
    contests = new ContestsPage(admin, catalog);
    boardPage = await signedIn('juez_activo', 'clave-juez', '/homeJuez');
    board = new BoardPage(boardPage);
    // The hall's screen is another machine: its own browser context (a background tab of the judge's
    // window would have its timers throttled by Chromium).
    projectorPage = await signedIn('juez_activo', 'clave-juez', '/homeJuez');
    projector = new ProjectorPage(projectorPage, bed.server.url);
  });

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
  });

  it('says no contest is active on the board and the projector instead of empty tables', async () => {
    await board.connectionState().filter({ hasText: 'Conectado' }).waitFor();
    await boardPage.getByTestId('no-active-contest').getByText(MESSAGES.noActiveContest).waitFor();
    expect(await boardPage.getByText(MESSAGES.noTeams).count()).toBe(0);
    await projector.open();
    await projectorPage.getByTestId('no-active-contest').getByText(MESSAGES.noActiveContest).waitFor();
    expect(await projector.column('basico').count()).toBe(0);
  });

  it('starts a new team and exercise in the active contest, registers one in a chosen contest, shows a team its own in edit', async () => {
    // 2026B with a team, and 2027A made the active contest as 'Activar' does (contest-life.test.ts
    // presses it in the browser).
    const current = await createContest(bed.server.orm, '2026-11-21', { active: false });
    const next = await createContest(bed.server.orm, '2027-02-01', { active: false });
    await createTeam(bed.server.orm, current.id, LEVELS.basico, 'Equipo del 2026B');
    expect((await api.activateContest(next.id)).active).toBe(true);

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
    const source = await createContest(bed.server.orm, '2025-03-01', { active: false });
    await blockProcesses(bed.server.orm, source.id, ['Discord.exe']);

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
