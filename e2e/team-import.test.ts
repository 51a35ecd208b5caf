import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { IMPORT_MESSAGES, MESSAGES, USER_TYPES, type TeamRow } from '@concurso/shared';
import { HttpApi, createUser, windows1252 } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { CatalogPage } from './pages/catalog-page.js';
import { ImportDialog, TeamImportsDialog } from './pages/import-dialog.js';
import { openSignedIn } from './pages/login-page.js';
import { TeamsPage } from './pages/teams-page.js';

const ADMIN = { username: 'admin_importa', password: 'clave-admin' };
const COACH = 'Dra. María Núñez';
const CAREER = 'Ingeniería en Computación';
const FILE = 'registro-excel.csv';
/** What Excel in Spanish writes for «CSV (delimitado por comas)»: Windows-1252, `;`, CRLF. */
const EXCEL_CSV = windows1252(
  [
    'Equipo;Nivel;Coach;Código;Nombre;Semestre;Carrera',
    `Los Ñandúes – Vespertino;Básico;${COACH};X-1;Bernardo O’Higgins;4;${CAREER} (Sistemas de Información)`,
    `Los Ñandúes – Vespertino;Básico;${COACH};X-2;Begoña Ibáñez;6;${CAREER} (Ciencias Computacionales)`,
    `Compiladores Cañón;Avanzado;${COACH};X-3;Íñigo Muñoz;8;Licenciatura en Informática`,
  ].join('\r\n') + '\r\n',
);

/**
 * Imports as an organiser does them in Chromium: Spanish Excel's own CSV (Windows-1252,
 * `;`) previews with its accents right and a warning to look at them, a career two departaments share
 * is named «Carrera (Departamento)», the import goes to the wrong (active) contest and is undone from
 * 'Importaciones' in one step; /teams shows one contest's teams at a time.
 */
describe('importing teams from Spanish Excel, and undoing it', () => {
  const bed = useWebTestBed();
  let api: HttpApi;
  let page: Page;
  let catalog: CatalogPage;
  let teams: TeamsPage;
  let otherContest: number;

  beforeAll(async () => {
    await createUser(bed.server.orm, USER_TYPES.admin, ADMIN.username, ADMIN.password);
    api = await HttpApi.signIn(bed.server.url, ADMIN.username, ADMIN.password);
    const active = await api.createContest('2026-11-21'); // 2026B, the active one: the wrong contest here
    otherContest = await api.createContest('2027-03-15'); // 2027A
    const coach = await api.createCoach(COACH);
    await api.createCareers([CAREER, 'Licenciatura en Informática']);
    await api.createCareers([CAREER], { school: 'CUCEA', departament: 'Sistemas de Información' });
    // One team registered by hand in each contest, for the filter.
    await api.createTeam('Equipo de 2026B', 1, coach, active);
    await api.createTeam('Equipo de 2027A', 1, coach, otherContest);

    ({ page } = await openSignedIn(bed.browser, bed.server.url, ADMIN.username, ADMIN.password, '/home'));
    catalog = new CatalogPage(page, bed.server.url);
    teams = new TeamsPage(page, catalog);
  });

  it("previews Excel's Windows-1252 CSV with its accents right and imports it", async () => {
    await teams.open();
    const importing = new ImportDialog(page);
    await importing.open();
    await importing.chooseFile({ name: FILE, mimeType: 'text/csv', buffer: EXCEL_CSV });

    await importing.encodingNote().filter({ hasText: IMPORT_MESSAGES.readAsWindows1252 }).waitFor();
    const rows = await importing.previewTeams().allTextContents();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('Los Ñandúes – Vespertino');
    expect(rows[0]).toContain('Bernardo O’Higgins, Begoña Ibáñez');
    expect(rows[1]).toContain('Compiladores Cañón');
    expect(rows[1]).toContain('Íñigo Muñoz');
    expect(await importing.errors().count()).toBe(0);

    await importing.runImport(2);
    const done = catalog.messageDialog(MESSAGES.correct);
    expect(await done.textContent()).toContain(IMPORT_MESSAGES.undoHint);
    await catalog.dismiss(done);
    await catalog.rowWith('Los Ñandúes – Vespertino').waitFor();

    // Each member got the career of the departament the file named.
    const team = (await api.data<TeamRow[]>('/api/getTeams')).find(
      (row) => row.name === 'Los Ñandúes – Vespertino',
    )!;
    const members = await api.data<
      Array<{ name: string; career: { name: string } | null; careers_id: number }>
    >(`/api/getParticipantTeam/${team.id}`);
    const careers = await api.data<Array<{ id: number; departament: { name: string } }>>('/api/getCareers');
    const departamentOf = (id: number) => careers.find((career) => career.id === id)!.departament.name;
    expect(members.map((member) => [member.name, departamentOf(member.careers_id)])).toEqual([
      ['Bernardo O’Higgins', 'Sistemas de Información'],
      ['Begoña Ibáñez', 'Ciencias Computacionales'],
    ]);
  });

  it("undoes the import into the wrong contest from 'Importaciones' in one step", async () => {
    const before = await api.data<TeamRow[]>('/api/getTeams');
    const imports = new TeamImportsDialog(page);
    await imports.open();
    await imports.row(FILE).filter({ hasText: 'Se puede deshacer' }).waitFor();
    const question = await imports.undo(FILE);
    expect(question).toContain(IMPORT_MESSAGES.undoQuestion(2, '2026B'));
    await catalog.toast(IMPORT_MESSAGES.undone(2)).waitFor();
    await imports.row(FILE).filter({ hasText: 'Deshecha el' }).waitFor();
    expect(await imports.row(FILE).getByRole('button', { name: 'Deshacer' }).count()).toBe(0);
    await imports.close();

    await catalog.rowWith('Los Ñandúes – Vespertino').waitFor({ state: 'detached' });
    await catalog.rowWith('Compiladores Cañón').waitFor({ state: 'detached' });
    const after = await api.data<TeamRow[]>('/api/getTeams');
    expect(after.map((row) => row.name).sort()).toEqual(
      before
        .map((row) => row.name)
        .filter((name) => name !== 'Los Ñandúes – Vespertino' && name !== 'Compiladores Cañón')
        .sort(),
    );
  });

  it("shows one contest's teams at a time on /teams, the active one first", async () => {
    await teams.open();
    expect(await teams.contestFilter().locator('option:checked').textContent()).toBe('2026B');
    await catalog.rowWith('Equipo de 2026B').waitFor();
    expect(await catalog.rowWith('Equipo de 2027A').count()).toBe(0);

    await teams.contestFilter().selectOption({ label: '2027A' });
    await catalog.rowWith('Equipo de 2027A').waitFor();
    expect(await catalog.rowWith('Equipo de 2026B').count()).toBe(0);

    await teams.contestFilter().selectOption({ label: 'Todos los concursos' });
    await catalog.rowWith('Equipo de 2026B').waitFor();
    await catalog.rowWith('Equipo de 2027A').waitFor();
    expect(otherContest).toBeGreaterThan(0);
  });
});
