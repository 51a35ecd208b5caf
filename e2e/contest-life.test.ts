import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { BrowserContext, Download, Page } from 'playwright-core';
import {
  CONTEST_LOG_HEADERS,
  IMPORT_EXAMPLE_TEAM,
  LEVELS,
  MESSAGES,
  USER_TYPES,
  type TeamRow,
} from '@concurso/shared';
import { HttpApi, agentConfig, blockProcesses, createUser, sendAttempt } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { BoardPage } from './pages/board-page.js';
import { CatalogPage } from './pages/catalog-page.js';
import { COPY_FROM_LABEL, ContestsPage } from './pages/contests-page.js';
import { HistoryPage } from './pages/history-page.js';
import { ImportDialog } from './pages/import-dialog.js';
import { openSignedIn } from './pages/login-page.js';
import { ProjectorPage } from './pages/projector-page.js';
import { TeamsPage } from './pages/teams-page.js';

const run = promisify(execFile);

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const JUDGE = { username: 'juez_vida', password: 'clave-juez', name: 'Usuario juez_vida' };
const COACH = 'Dra. María Núñez';
const CAREER = 'Ingeniería en Computación';
/** The 2026B contest's blocked set, copied into 2027A when it is registered. */
const BLOCKED = ['Discord.exe', 'steam.exe'];

/**
 * The registration file, one row per member (header = line 1): 'Los Algoritmos' (lines 2-3),
 * 'Núcleo Rápido' (line 4) and 'Bits de Jalisco' (line 5, the level given as `level5`).
 */
function registration(level5: string): Array<Array<string | number>> {
  return [
    ['Equipo', 'Nivel', 'Coach', 'Código', 'Nombre', 'Semestre', 'Carrera'],
    ['Los Algoritmos', 'Básico', COACH, 'V-201', 'Ana Torres', 3, CAREER],
    ['Los Algoritmos', 'Básico', COACH, 'V-202', 'Luis Gómez', 4, CAREER],
    ['Núcleo Rápido', 'Intermedio', COACH, 'V-203', 'Sofía Peña', 6, CAREER],
    ['Bits de Jalisco', level5, COACH, 'V-204', 'Diego Ruiz', 8, CAREER],
  ];
}

/** A workbook of one sheet 'Registro' holding `rows`. */
function workbookOf(rows: Array<Array<string | number>>): ExcelJS.Workbook {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Registro');
  for (const row of rows) sheet.addRow(row);
  return workbook;
}

/** A sheet's rows as plain arrays of cell values (exceljs' `values` start at index 1). */
function rowsOf(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

/**
 * The contest's life in Chromium, as the organisers live it: with a
 * judge's board and the projector open on 2026B, an administrator registers 2027A copying 2026B's
 * blocked set and activates it after a question naming both contests (both screens follow without a
 * reload, and an agent of 2027A gets the copied set); imports a registration spreadsheet with a bad
 * row (shown by line, nothing written), then the fixed file (the teams reach the open board); the
 * judge blocks an imported team and reads who did it in its 'Historial', which grows as the agent
 * reports; the board's 'Estadísticas' count the block and its charts hide (remembered after a
 * reload); /bitacora lists the block and the attempts, live, filtered and exported; the contest's
 * report is downloaded as PDF and XLSX and read back (pdftotext, exceljs).
 */
describe('the life of a contest in Chromium', () => {
  const bed = useWebTestBed();
  let api: HttpApi;
  let downloads: string;
  const contexts: BrowserContext[] = [];
  let admin: Page;
  let catalog: CatalogPage;
  let contests: ContestsPage;
  let boardPage: Page;
  let board: BoardPage;
  let projectorPage: Page;
  let projector: ProjectorPage;
  let history: HistoryPage;
  let coachId: number;
  /** The 2026B contest, active until 2027A is activated. */
  let current: number;
  let oldTeam: { id: number; name: string };
  /** The 2027A contest and a team registered in it before its activation, with its agent key. */
  let next: number;
  let early: { id: number; name: string; key: string };
  /** The imported teams of 2027A, by name. */
  let imported: Map<string, TeamRow>;

  async function signedIn(username: string, password: string, landing: string): Promise<Page> {
    const { page, context } = await openSignedIn(bed.browser, bed.server.url, username, password, landing, {
      acceptDownloads: true,
    });
    contexts.push(context);
    return page;
  }

  /** Saves a download into the test's folder under its suggested name; answers the path. */
  async function saved(download: Download): Promise<string> {
    const file = path.join(downloads, download.suggestedFilename());
    await download.saveAs(file);
    return file;
  }

  /** Marks a page's window object, to tell later that the very same document is still shown. */
  const mark = (page: Page) =>
    page.evaluate(() => {
      (window as unknown as { __marker?: string }).__marker = 'sin recargar';
    });
  const marker = (page: Page) => page.evaluate(() => (window as unknown as { __marker?: string }).__marker);

  beforeAll(async () => {
    downloads = await mkdtemp(path.join(tmpdir(), 'contest-life-'));
    await createUser(bed.server.orm, USER_TYPES.admin, 'admin_vida', 'clave-admin');
    await createUser(bed.server.orm, USER_TYPES.judge, JUDGE.username, JUDGE.password);
    api = await HttpApi.signIn(bed.server.url, 'admin_vida', 'clave-admin');

    // The catalogues the registration file names, and this term's contest (the first: active).
    await api.createCareers([CAREER], { school: 'CUCEI' });
    coachId = await api.createCoach(COACH);
    current = await api.createContest('2026-11-21');
    await blockProcesses(bed.server.orm, current, BLOCKED);
    oldTeam = await api.createTeam('Los del 2026B', LEVELS.basico, coachId);

    admin = await signedIn('admin_vida', 'clave-admin', '/home');
    catalog = new CatalogPage(admin, bed.server.url);
    contests = new ContestsPage(admin, catalog);
    boardPage = await signedIn(JUDGE.username, JUDGE.password, '/homeJuez');
    board = new BoardPage(boardPage);
    history = new HistoryPage(boardPage);
    // The hall's screen is another machine: its own browser window (a background tab of the judge's
    // window would have its timers and animations throttled by Chromium).
    projectorPage = await signedIn(JUDGE.username, JUDGE.password, '/homeJuez');
    projector = new ProjectorPage(projectorPage, bed.server.url);
  });

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    if (downloads) await rm(downloads, { recursive: true, force: true });
  });

  it('registers 2027A copying the blocked set, activates it; the open board and projector follow without a reload', async () => {
    await board.row(oldTeam.id).waitFor();
    await projector.open();
    await projector.row(oldTeam.id).waitFor();
    await mark(boardPage);
    await mark(projectorPage);

    await contests.open();
    const currentRow = catalog.row(current);
    await contests.activeBadge(currentRow).waitFor();
    expect(await contests.activateButton(currentRow).count()).toBe(0);
    const dialog = await catalog.openCreate('Registrar concurso', 'Registrar Concurso');
    await dialog.getByLabel('Fecha').fill('2027-02-01');
    await dialog.getByLabel(COPY_FROM_LABEL).selectOption({ label: '2026B' });
    await catalog.save(dialog);
    next = await catalog.idOf('2027A');
    const row = catalog.row(next);
    // Registering does not move anyone: 2026B stays active.
    expect(await contests.activeBadge(row).count()).toBe(0);

    // A team of 2027A with its agent: no blocked set while its contest is not the active one.
    const team = await api.createTeam('Los Madrugadores', LEVELS.intermedio, coachId, next);
    early = { ...team, key: await api.generateAgentKey(team.id) };
    const before = await agentConfig(bed.server.url, early.key);
    expect(before.contest).toMatchObject({ id: next, active: false });
    expect(before.blocked).toEqual([]);

    const question = await contests.askActivation(row, '2027A');
    expect(await question.textContent()).toContain(
      'Los tableros y los agentes pasarán al concurso 2027A. Dejarán de mostrar el concurso 2026B.',
    );
    await contests.confirmActivation(question);
    await contests.activeBadge(row).waitFor();
    // One active contest: 2026B lost its badge and can be activated again.
    await contests.activateButton(currentRow).waitFor();
    expect(await contests.activeBadge(currentRow).count()).toBe(0);

    // The server's board.reset moves both open screens: 2027A's team in, 2026B's out, same documents.
    await board.row(early.id).waitFor({ timeout: 5_000 });
    await board.row(oldTeam.id).waitFor({ state: 'detached' });
    expect(await boardPage.getByTestId('current-contest').textContent()).toContain('2027A');
    await projector.row(early.id).waitFor({ timeout: 5_000 });
    await projector.row(oldTeam.id).waitFor({ state: 'detached' });
    expect(await projectorPage.getByRole('heading', { level: 1 }).textContent()).toBe('Concurso 2027A');
    expect(await marker(boardPage)).toBe('sin recargar');
    expect(await marker(projectorPage)).toBe('sin recargar');

    // The agent now gets the blocked set copied from 2026B.
    const after = await agentConfig(bed.server.url, early.key);
    expect(after.contest).toMatchObject({ id: next, calendar: '2027A', active: true });
    expect([...after.blocked].sort()).toEqual(BLOCKED);
  });

  it('imports a spreadsheet: a bad row is shown by line and nothing is written; the fixed file reaches the open board', async () => {
    const teamsPage = new TeamsPage(admin, catalog);
    const importing = new ImportDialog(admin);
    await teamsPage.open();
    await importing.open();
    expect(await importing.contest().locator('option:checked').textContent()).toBe('2027A');

    // The template: the registration file's header row and an example row, and a second
    // sheet listing the valid levels, coaches and careers.
    const template = await importing.downloadTemplate();
    expect(template.suggestedFilename()).toBe('plantilla-equipos.xlsx');
    const templateBook = new ExcelJS.Workbook();
    await templateBook.xlsx.readFile(await saved(template));
    const [header, example, ...more] = rowsOf(templateBook.worksheets[0]!);
    expect(header).toEqual(['Equipo', 'Nivel', 'Coach', 'Código', 'Nombre', 'Semestre', 'Carrera']);
    expect(example![0]).toBe(IMPORT_EXAMPLE_TEAM);
    expect(more).toEqual([]);
    const lists = templateBook.worksheets[1]!;
    expect(lists.name).toBe('Catálogos');
    expect(
      rowsOf(lists)
        .map((row) => row[0])
        .filter(Boolean),
    ).toEqual(['Nivel', 'Básico', 'Intermedio', 'Avanzado']);

    const teamsBefore = await api.data<TeamRow[]>('/api/getTeams');
    await importing.chooseFile({
      name: 'registro-2027A.xlsx',
      mimeType: XLSX_TYPE,
      buffer: Buffer.from(await workbookOf(registration('Experto')).xlsx.writeBuffer()),
    });
    await importing.errors().first().waitFor();
    expect(await importing.errors().allTextContents()).toEqual(['Línea 5: Nivel desconocido «Experto»']);
    expect(await importing.importButton().isDisabled()).toBe(true);
    expect(await importing.importButton().textContent()).toBe('Importar');
    // The preview wrote nothing.
    expect(await api.data<TeamRow[]>('/api/getTeams')).toEqual(teamsBefore);

    // The fixed file, saved as CSV this time.
    await importing.chooseFile({
      name: 'registro-2027A.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(await workbookOf(registration('Avanzado')).csv.writeBuffer()),
    });
    await importing.runImport(3);
    const done = catalog.messageDialog(MESSAGES.correct);
    expect(await done.textContent()).toContain('Se importaron 3 equipos.');
    await catalog.dismiss(done);

    const teams = (await api.data<TeamRow[]>('/api/getTeams')).filter((team) => team.contests_id === next);
    imported = new Map(teams.filter((team) => team.id !== early.id).map((team) => [team.name, team]));
    expect([...imported.keys()].sort()).toEqual(['Bits de Jalisco', 'Los Algoritmos', 'Núcleo Rápido']);
    // Pushed to the judge's open board, each in its level's table.
    await board
      .table('basico')
      .getByTestId(`team-row-${imported.get('Los Algoritmos')!.id}`)
      .waitFor();
    await board
      .table('intermedio')
      .getByTestId(`team-row-${imported.get('Núcleo Rápido')!.id}`)
      .waitFor();
    await board
      .table('avanzado')
      .getByTestId(`team-row-${imported.get('Bits de Jalisco')!.id}`)
      .waitFor();
    expect(await marker(boardPage)).toBe('sin recargar');
  });

  it("blocks an imported team; its 'Historial' names the judge and grows as the agent reports", async () => {
    const team = imported.get('Núcleo Rápido')!;
    await board.toggleAndConfirm(team.id);
    await board.toggleButton(team.id).filter({ hasText: 'Desbloquear' }).waitFor();

    await history.openTeamHistory(team.id);
    await history.dialog().getByText('Historial del equipo: Núcleo Rápido').waitFor();
    await history
      .statusRows()
      .filter({ hasText: 'Activo → Descalificado' })
      .filter({ hasText: JUDGE.name })
      .waitFor();
    expect(await history.attemptRows().filter({ hasText: 'Discord.exe' }).count()).toBe(0);

    // The team's agent reports while the dialog is open.
    const key = await api.generateAgentKey(team.id);
    expect((await sendAttempt(bed.server.url, key, 'Discord.exe')).status).toBe(200);
    await history.attemptRows().filter({ hasText: 'Discord.exe' }).waitFor({ timeout: 10_000 });
    await history.closeDialog();
  });

  it("shows the block in the board's 'Estadísticas'; 'Ocultar gráficas' hides the charts, still hidden after a reload", async () => {
    // 2027A: four teams (Los Madrugadores and the three imported), Núcleo Rápido blocked, one attempt.
    await board.statsPanel().scrollIntoViewIfNeeded();
    // The figures refetch after the board's pushes, throttled: each is awaited.
    await board.statsFigure('teams-blocked').filter({ hasText: '1 de 4' }).waitFor();
    await board.statsFigure('attempts').filter({ hasText: /^1$/ }).waitFor();
    await board.statsFigure('top-process').filter({ hasText: 'Discord.exe' }).waitFor();
    // Shown by default: their chunk loads once the panel is in view.
    await board.statsCharts().waitFor();

    await board.chartsToggle('Ocultar gráficas').click();
    await board.statsCharts().waitFor({ state: 'detached' });
    // This browser remembers the choice (the earlier steps' no-reload checks are done).
    await boardPage.reload();
    await board.statsFigure('teams-blocked').filter({ hasText: '1 de 4' }).waitFor();
    await board.statsPanel().scrollIntoViewIfNeeded();
    await board.chartsToggle('Mostrar gráficas').waitFor();
    expect(await board.statsCharts().count()).toBe(0);

    // Shown again, and remembered so: the browser's state as it was.
    await board.chartsToggle('Mostrar gráficas').click();
    await board.statsCharts().waitFor();
    await board.chartsToggle('Ocultar gráficas').waitFor();
  });

  it("lists 2027A's log at /bitacora from the judge's menu: the judge's block and the attempts, live, filtered and exported", async () => {
    const team = imported.get('Núcleo Rápido')!;
    await history.openLogFromMenu();
    expect(boardPage.url()).toBe(`${bed.server.url}/bitacora`);
    expect(await history.logContest().textContent()).toBe('Concurso 2027A · 01/02/2027');

    // Another team's attempt, for the team filter to leave out.
    expect((await sendAttempt(bed.server.url, early.key, 'steam.exe')).status).toBe(200);
    await expect.poll(() => history.logRows().count(), { timeout: 10_000 }).toBe(3);
    expect(await history.logRows().filter({ hasText: 'Los Madrugadores' }).count()).toBe(1);

    // The team's rows: the judge's block and the agent's attempt (their order within one second is
    // the server's tie rule).
    await history.filterTeam('Núcleo Rápido');
    await expect.poll(() => history.logRows().count()).toBe(2);
    const texts = await history.logRows().allTextContents();
    expect(texts.filter((text) => text.includes('Cambio de estatus'))).toEqual([
      expect.stringMatching(/Activo → Descalificado.*Usuario juez_vida/),
    ]);
    expect(texts.filter((text) => text.includes('Intento'))).toEqual([
      expect.stringContaining('Discord.exe'),
    ]);

    // A new attempt reaches the open log through the boards' push.
    const key = await api.generateAgentKey(team.id);
    expect((await sendAttempt(bed.server.url, key, 'Discord.exe')).status).toBe(200);
    await expect.poll(() => history.logRows().count(), { timeout: 10_000 }).toBe(3);

    // By process: the attempts only, the status change left out.
    await history.filterProcess('Discord.exe');
    await expect
      .poll(async () => (await history.logRows().allTextContents()).join('\n'))
      .not.toContain('Cambio de estatus');
    expect(await history.logRows().count()).toBe(2);

    // The export holds the filtered rows, as shown.
    const exported = await history.exportExcel();
    expect(exported.suggestedFilename()).toBe('bitacora.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await saved(exported));
    const rows = rowsOf(book.worksheets[0]!);
    expect(rows[0]).toEqual(Object.values(CONTEST_LOG_HEADERS));
    expect(rows.slice(1).map((row) => row.slice(1, 5))).toEqual([
      ['Intento', 'Núcleo Rápido', 'Intermedio', 'Discord.exe'],
      ['Intento', 'Núcleo Rápido', 'Intermedio', 'Discord.exe'],
    ]);
  });

  it('downloads the report as PDF and XLSX from /contests and reads both back', async () => {
    await contests.open();
    const row = catalog.row(next);

    const pdf = await contests.downloadReport(row, 'PDF');
    expect(pdf.suggestedFilename()).toBe('reporte-2027A.pdf');
    const { stdout: text } = await run('pdftotext', ['-layout', await saved(pdf), '-']);
    expect(text).toContain('Reporte del concurso 2027A (01/02/2027)');
    for (const name of ['Los Algoritmos', 'Núcleo Rápido', 'Bits de Jalisco', 'Los Madrugadores']) {
      expect(text).toContain(name);
    }
    // The processes chart names the agent's two attempts (the 'Historial' and /bitacora steps).
    expect(text).toMatch(/Discord\.exe\s+2\n/);
    // The last section, the blocks and unblocks: the team, the change and who made it.
    const changes = text.slice(text.lastIndexOf('Bloqueos y desbloqueos'));
    expect(changes).toMatch(/Núcleo Rápido.*Activo\s+Descalificado\s+Usuario juez_vida/);
    // Every page numbered.
    const pages = text.split('\f').filter((page) => page.trim() !== '');
    pages.forEach((page, index) => expect(page).toContain(`Página ${index + 1} de ${pages.length}`));

    const xlsx = await contests.downloadReport(row, 'Excel');
    expect(xlsx.suggestedFilename()).toBe('reporte-2027A.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await saved(xlsx));
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual([
      'Resumen',
      'Equipos',
      'Bloqueos y desbloqueos',
      'Intentos por minuto',
      'Procesos',
    ]);
    const rows = rowsOf(book.getWorksheet('Bloqueos y desbloqueos')!);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual(['EQUIPO', 'NIVEL', 'FECHA', 'ANTES', 'DESPUÉS', 'POR']);
    expect(rows[1]).toEqual([
      'Núcleo Rápido',
      'Intermedio',
      expect.any(String),
      'Activo',
      'Descalificado',
      JUDGE.name,
    ]);
    const teams = rowsOf(book.getWorksheet('Equipos')!);
    expect(teams.find((team) => team[0] === 'Núcleo Rápido')?.at(-1)).toBe('Descalificado');
    expect(teams.find((team) => team[0] === 'Los Algoritmos')?.[3]).toBe(2);
  });
});
