import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { BrowserContext, Download, Page } from 'playwright-core';
import { LEVELS, MESSAGES, USER_TYPES, type AgentConfig, type TeamRow } from '@concurso/shared';
import {
  HttpApi,
  blockProcesses,
  createUser,
  sendAttempt,
  startWebTestBed,
  type TestServer,
  type WebTestBed,
} from '@concurso/testkit';
import { BoardPage } from './pages/board-page.js';
import { CatalogPage } from './pages/catalog-page.js';
import { COPY_FROM_LABEL, ContestsPage } from './pages/contests-page.js';
import { HistoryPage } from './pages/history-page.js';
import { ImportDialog } from './pages/import-dialog.js';
import { LoginPage } from './pages/login-page.js';
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
 * The contest's life in Chromium, as the organisers live it (issue 13, "A Chromium journey"): with a
 * judge's board and the projector open on 2026B, an administrator registers 2027A copying 2026B's
 * blocked set and activates it (both screens follow without a reload, and an agent of 2027A gets the
 * copied set); imports a registration spreadsheet with a bad row (shown by line, nothing written),
 * then the fixed file (the teams reach the open board); the judge blocks an imported team and reads
 * who did it in its 'Historial', which grows as the agent reports; the contest's report is downloaded
 * as PDF and XLSX and read back (pdftotext, exceljs).
 */
describe('the life of a contest in Chromium (issue 13)', () => {
  let bed: WebTestBed;
  let server: TestServer;
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
  let oldTeam: { id: number; name: string };
  /** The 2027A contest and a team registered in it before its activation, with its agent key. */
  let next: number;
  let early: { id: number; name: string; key: string };
  /** The imported teams of 2027A, by name. */
  let imported: Map<string, TeamRow>;

  async function signedIn(username: string, password: string, landing: string): Promise<Page> {
    const context = await bed.browser.newContext({ acceptDownloads: true });
    contexts.push(context);
    const page = await context.newPage();
    const login = new LoginPage(page, server.url);
    await login.open();
    await login.signIn(username, password);
    await page.waitForURL(`${server.url}${landing}`);
    return page;
  }

  /** `GET /api/agent/config` as the agent holding `key`. */
  async function agentConfig(key: string): Promise<AgentConfig> {
    const res = await fetch(`${server.url}/api/agent/config`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: AgentConfig }).data;
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
    bed = await startWebTestBed();
    server = bed.server;
    downloads = await mkdtemp(path.join(tmpdir(), 'contest-life-'));
    await createUser(server.orm, USER_TYPES.admin, 'admin_vida', 'clave-admin');
    await createUser(server.orm, USER_TYPES.judge, JUDGE.username, JUDGE.password);
    api = await HttpApi.signIn(server.url, 'admin_vida', 'clave-admin');

    // The catalogues the registration file names, and this term's contest (the first: active).
    const school = (await api.data<{ id: number }>('/api/createSchool', { name: 'CUCEI' })).id;
    const departament = (
      await api.data<{ id: number }>('/api/createDepartament', {
        name: 'Ciencias Computacionales',
        type: 0,
        schools_id: school,
      })
    ).id;
    await api.data('/api/createCareer', { name: CAREER, departaments_id: departament });
    coachId = await api.createCoach(COACH);
    const current = await api.createContest('2026-11-21');
    await blockProcesses(server.orm, current, BLOCKED);
    oldTeam = await api.createTeam('Los del 2026B', LEVELS.basico, coachId);

    admin = await signedIn('admin_vida', 'clave-admin', '/home');
    catalog = new CatalogPage(admin, server.url);
    contests = new ContestsPage(admin, catalog);
    boardPage = await signedIn(JUDGE.username, JUDGE.password, '/homeJuez');
    board = new BoardPage(boardPage);
    history = new HistoryPage(boardPage);
    // The hall's screen is another machine: its own browser window (a background tab of the judge's
    // window would have its timers and animations throttled by Chromium).
    projectorPage = await signedIn(JUDGE.username, JUDGE.password, '/homeJuez');
    projector = new ProjectorPage(projectorPage, server.url);
  });

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await bed?.close();
    if (downloads) await rm(downloads, { recursive: true, force: true });
  });

  it('registers 2027A copying the blocked set, activates it; the open board and projector follow without a reload', async () => {
    await board.row(oldTeam.id).waitFor();
    await projector.open();
    await projector.row(oldTeam.id).waitFor();
    await mark(boardPage);
    await mark(projectorPage);

    await contests.open();
    const dialog = await catalog.openCreate('Registrar concurso', 'Registrar Concurso');
    await dialog.getByLabel('Fecha').fill('2027-02-01');
    await dialog.getByLabel(COPY_FROM_LABEL).selectOption({ label: '2026B' });
    await catalog.save(dialog);
    next = await catalog.idOf('2027A');
    const row = catalog.row(next);
    // Registering does not move anyone: 2026B stays active.
    expect(await contests.activeBadge(row).count()).toBe(0);

    // A team of 2027A with its agent: no blocked set while its contest is not the active one.
    const team = await api.data<{ id: number; name: string }>('/api/createTeam', {
      name: 'Los Madrugadores',
      levels_id: LEVELS.intermedio,
      coaches_id: coachId,
      contests_id: next,
    });
    early = { ...team, key: await api.generateAgentKey(team.id) };
    const before = await agentConfig(early.key);
    expect(before.contest).toMatchObject({ id: next, active: false });
    expect(before.blocked).toEqual([]);

    const question = await contests.askActivation(row, '2027A');
    expect(await question.textContent()).toContain('Los tableros y los agentes pasarán al concurso 2027A');
    await contests.confirmActivation(question);
    await contests.activeBadge(row).waitFor();

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
    const after = await agentConfig(early.key);
    expect(after.contest).toMatchObject({ id: next, calendar: '2027A', active: true });
    expect([...after.blocked].sort()).toEqual(BLOCKED);
  });

  it('imports a spreadsheet: a bad row is shown by line and nothing is written; the fixed file reaches the open board', async () => {
    const teamsPage = new TeamsPage(admin, catalog);
    const importing = new ImportDialog(admin);
    await teamsPage.open();
    await importing.open();
    expect(await importing.contest().locator('option:checked').textContent()).toBe('2027A');

    // The template: an .xlsx with the registration file's header row and nothing else.
    const template = await importing.downloadTemplate();
    expect(template.suggestedFilename()).toBe('plantilla-equipos.xlsx');
    const templateBook = new ExcelJS.Workbook();
    await templateBook.xlsx.readFile(await saved(template));
    expect(rowsOf(templateBook.worksheets[0]!)).toEqual([
      ['Equipo', 'Nivel', 'Coach', 'Código', 'Nombre', 'Semestre', 'Carrera'],
    ]);

    const teamsBefore = await api.data<TeamRow[]>('/api/getTeams');
    await importing.chooseFile({
      name: 'registro-2027A.xlsx',
      mimeType: XLSX_TYPE,
      buffer: Buffer.from(await workbookOf(registration('Experto')).xlsx.writeBuffer()),
    });
    await importing.errors().first().waitFor();
    expect(await importing.errors().allTextContents()).toEqual(['Línea 5: Nivel desconocido «Experto»']);
    expect(await importing.importButton().isDisabled()).toBe(true);
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
    expect((await sendAttempt(server.url, key, 'Discord.exe')).status).toBe(200);
    await history.attemptRows().filter({ hasText: 'Discord.exe' }).waitFor({ timeout: 10_000 });
    await history.closeDialog();
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
    // The processes chart names the agent's one attempt.
    expect(text).toMatch(/Discord\.exe\s+1\n/);
    // The last section, the disqualifications: the team and who did it.
    const disqualifications = text.slice(text.lastIndexOf('Descalificaciones'));
    expect(disqualifications).toMatch(/Núcleo Rápido.*Usuario juez_vida/);

    const xlsx = await contests.downloadReport(row, 'Excel');
    expect(xlsx.suggestedFilename()).toBe('reporte-2027A.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await saved(xlsx));
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual([
      'Resumen',
      'Equipos',
      'Descalificaciones',
      'Intentos por minuto',
      'Procesos',
    ]);
    const rows = rowsOf(book.getWorksheet('Descalificaciones')!);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual(['EQUIPO', 'NIVEL', 'FECHA', 'DESCALIFICADO POR']);
    expect(rows[1]).toEqual(['Núcleo Rápido', 'Intermedio', expect.any(String), JUDGE.name]);
    const teams = rowsOf(book.getWorksheet('Equipos')!);
    expect(teams.find((team) => team[0] === 'Núcleo Rápido')?.at(-1)).toBe('Descalificado');
    expect(teams.find((team) => team[0] === 'Los Algoritmos')?.[3]).toBe(2);
  });
});
