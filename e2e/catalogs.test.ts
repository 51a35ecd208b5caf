import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { USER_TYPES } from '@concurso/shared';
import { HttpApi, createUser } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { CatalogPage } from './pages/catalog-page.js';
import { ContestProcessesDialogs } from './pages/contest-processes.js';
import { LoginPage } from './pages/login-page.js';

const SCHOOL = 'Escuela Superior de Cómputo';
const SCHOOL_EDITED = 'Escuela Superior de Cómputo (ESCOM)';
const SPARE_SCHOOL = 'Escuela de Paso';
const DEPARTAMENT = 'Ciencias Computacionales';
const CAREER = 'Ingeniería en Computación';
const COACH = 'Mtra. Laura Méndez';

/**
 * The catalogue screens in a real browser (docs/spec.md section 2): an admin builds a school,
 * a department, a career, a coach, two processes and a contest; assigns the processes to the contest
 * and sees them; exports the contests to .xlsx and reads the file back; edits a school; is refused the
 * delete of a school in use; deletes an unused one. A second admin screen follows a change live.
 */
describe('catalogue screens in Chromium', () => {
  const bed = useWebTestBed();
  let page: Page;
  let catalog: CatalogPage;
  let downloads: string;

  async function signIn(target: Page): Promise<void> {
    const loginPage = new LoginPage(target, bed.server.url);
    await loginPage.open();
    await loginPage.signIn('admin_catalogos', 'clave-admin');
    await target.waitForURL(`${bed.server.url}/home`);
  }

  beforeAll(async () => {
    await createUser(bed.server.orm, USER_TYPES.admin, 'admin_catalogos', 'clave-admin');
    downloads = await mkdtemp(path.join(os.tmpdir(), 'catalogos-e2e-'));
    // Its context closes with the bed's browser.
    page = await (await bed.browser.newContext({ acceptDownloads: true })).newPage();
    catalog = new CatalogPage(page, bed.server.url);
    await signIn(page);
  });

  afterAll(async () => {
    if (downloads) await rm(downloads, { recursive: true, force: true });
  });

  it('registers a school, warns about an empty form and shows the new row', async () => {
    await catalog.open('/schools', 'Información de las escuelas');
    expect(await catalog.table().textContent()).toContain('No hay registros para mostrar');
    expect(await catalog.info().textContent()).toBe('Mostrando del 0 al 0 de 0 registros');

    const dialog = await catalog.openCreate('Registrar escuela', 'Registrar Escuela');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    const warning = catalog.messageDialog('Información');
    await warning.getByText('Por favor llene todos los campos correctamente').waitFor();
    await catalog.dismiss(warning);
    await dialog.getByText('Este campo es requerido').waitFor();

    await dialog.getByLabel('Nombre').fill(SCHOOL);
    await catalog.save(dialog);
    await catalog.toast('Registrado').waitFor();
    await catalog.rowWith(SCHOOL).waitFor();
    expect(await catalog.info().textContent()).toBe('Mostrando del 1 al 1 de 1 registros');
  });

  it('shows a school registered on one screen on another admin screen without reloading', async () => {
    const otherContext = await bed.browser.newContext();
    try {
      const other = await otherContext.newPage();
      await signIn(other);
      const otherCatalog = new CatalogPage(other, bed.server.url);
      await otherCatalog.open('/schools', 'Información de las escuelas');

      const dialog = await catalog.openCreate('Registrar escuela', 'Registrar Escuela');
      await dialog.getByLabel('Nombre').fill(SPARE_SCHOOL);
      await catalog.save(dialog);

      await otherCatalog.rowWith(SPARE_SCHOOL).waitFor({ timeout: 5_000 });
    } finally {
      await otherContext.close();
    }
  });

  it('registers a department in the school and a career in the department', async () => {
    await catalog.open('/departaments', 'Información de los departamentos');
    let dialog = await catalog.openCreate('Registrar departamento', 'Registrar Departamento');
    await dialog.getByLabel('Nombre').fill(DEPARTAMENT);
    await dialog.getByLabel('Tipo').selectOption({ label: 'Externo' });
    await dialog.getByLabel('Escuela').selectOption({ label: SCHOOL });
    await catalog.save(dialog);
    const departamentRow = catalog.rowWith(DEPARTAMENT);
    await departamentRow.waitFor();
    expect(await departamentRow.textContent()).toContain('Externo');
    expect(await departamentRow.textContent()).toContain(SCHOOL);

    await catalog.open('/careers', 'Información de las carreras');
    dialog = await catalog.openCreate('Registrar carrera', 'Registrar Carrera');
    await dialog.getByLabel('Nombre').fill(CAREER);
    await dialog.getByLabel('Departamento').selectOption({ label: `${DEPARTAMENT} (${SCHOOL})` });
    await catalog.save(dialog);
    await catalog.rowWith(CAREER).waitFor();

    // The search ignores accents and case.
    await catalog.search('INGENIERIA');
    await catalog.rowWith(CAREER).waitFor();
    await catalog.search('no existe');
    await catalog.table().getByText('No hay registros para mostrar').waitFor();
    expect(await catalog.info().textContent()).toBe(
      'Mostrando del 0 al 0 de 0 registros (filtrado de 1 registros en total)',
    );
  });

  it('registers a coach with an education level', async () => {
    await catalog.open('/coaches', 'Información de los coaches');
    const dialog = await catalog.openCreate('Registrar coach', 'Registrar Coach');
    await dialog.getByLabel('Nombre').fill(COACH);
    await dialog.getByLabel('Nivel de educación').selectOption('Maestría');
    await catalog.save(dialog);
    expect(await catalog.rowWith(COACH).textContent()).toContain('Maestría');
  });

  it('registers two processes and refuses a duplicate with the server message', async () => {
    await catalog.open('/process', 'Información de los procesos');
    for (const name of ['Discord.exe', 'AnyDesk.exe']) {
      const dialog = await catalog.openCreate('Registrar proceso', 'Registrar Proceso');
      expect(await dialog.getByLabel('Nombre').getAttribute('placeholder')).toBe('Discord.exe');
      await dialog.getByLabel('Nombre').fill(name);
      await catalog.save(dialog);
      await catalog.rowWith(name).waitFor();
    }

    const dialog = await catalog.openCreate('Registrar proceso', 'Registrar Proceso');
    await dialog.getByLabel('Nombre').fill('discord.exe');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    const refusal = catalog.messageDialog('Error');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/discord\.exe/i);
    await catalog.dismiss(refusal);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('registers a contest, assigns both processes and lists them under Ver procesos', async () => {
    await catalog.open('/contests', 'Información de los concursos');
    const dialog = await catalog.openCreate('Registrar concurso', 'Registrar Concurso');
    // Today by default (docs/spec.md section 9).
    expect(await dialog.getByLabel('Fecha').inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await dialog.getByLabel('Fecha').fill('2026-11-21');
    expect(await dialog.getByLabel('Calendario').inputValue()).toBe('2026B');
    await catalog.save(dialog);
    const contestId = await catalog.idOf('2026B');
    const row = catalog.row(contestId);
    // Read in the Spanish form; the date input keeps ISO.
    expect(await row.textContent()).toContain('21/11/2026');
    expect(await row.textContent()).not.toContain('2026-11-21');

    const processes = new ContestProcessesDialogs(page);
    await processes.openAssign(row);
    await processes.toggle('Discord.exe');
    await processes.toggle('AnyDesk.exe');
    expect(await processes.selectedText().textContent()).toBe('Seleccionaste: AnyDesk.exe, Discord.exe');
    await processes.saveAssignment();
    await catalog.toast('Registrado').first().waitFor();

    const view = await processes.openView(row);
    await view.getByText('Discord.exe').waitFor();
    expect(await view.textContent()).toContain('AnyDesk.exe');
    await view.getByRole('button', { name: 'Cerrar' }).click();
    await view.waitFor({ state: 'hidden' });

    // Reopening the assignment shows the saved set ticked.
    await processes.openAssign(row);
    await processes.selectedText().filter({ hasText: 'Seleccionaste: AnyDesk.exe, Discord.exe' }).waitFor();
    await processes.assignDialog().getByRole('button', { name: 'Cancelar' }).click();
  });

  it("keeps 'Seleccionaste:' in view over the buttons when many processes are chosen", async () => {
    const api = await HttpApi.signIn(bed.server.url, 'admin_catalogos', 'clave-admin');
    for (let i = 1; i <= 40; i++) await api.call('/api/createProcess', { name: `Proceso-Largo-${i}.exe` });
    await catalog.open('/contests', 'Información de los concursos');
    const row = catalog.row(await catalog.idOf('2026B'));
    const processes = new ContestProcessesDialogs(page);
    const dialog = await processes.openAssign(row);
    await dialog.getByRole('button', { name: 'Marcar los mostrados' }).click();
    const summary = processes.selectedText();
    await summary.filter({ hasText: 'Proceso-Largo-40.exe' }).waitFor();
    // What the eye sees at the summary's first line is the summary, not the footer or the list over it.
    const onTop = await summary.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + 8, box.top + 6);
      return hit !== null && element.contains(hit) && box.bottom <= window.innerHeight;
    });
    expect(onTop).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Guardar' }).isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('exports the contests table to a real .xlsx with the header and the rows', async () => {
    await catalog.open('/contests', 'Información de los concursos');
    const download = await catalog.download('Excel');
    expect(download.suggestedFilename()).toBe('concursos.xlsx');
    const file = path.join(downloads, 'concursos.xlsx');
    await download.saveAs(file);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.worksheets[0];
    expect(sheet).toBeDefined();
    const values = (rowNumber: number) => (sheet?.getRow(rowNumber).values as unknown[]).slice(1);
    expect(values(1)).toEqual(['ID', 'CALENDAR', 'DATE', 'ACTIVO', 'MÁX. INTENTOS', 'REGISTRA PROGRAMAS']);
    expect(sheet?.rowCount).toBe(2);
    // The first contest registered is the active one; it has no automatic block.
    expect(values(2).slice(1, 4)).toEqual(['2026B', '21/11/2026', 'Activo']);
    expect(values(2)[4] ?? '').toBe('');
    // Its agents report what runs on the machines unless the form said otherwise.
    expect(values(2)[5]).toBe('Sí');
  });

  it('edits a school, is refused the delete of a school in use and deletes an unused one', async () => {
    await catalog.open('/schools', 'Información de las escuelas');
    const schoolId = await catalog.idOf(SCHOOL);
    const dialog = await catalog.openEdit(catalog.row(schoolId), 'Editar Escuela');
    expect(await dialog.getByLabel('Nombre').inputValue()).toBe(SCHOOL);
    await dialog.getByLabel('Nombre').fill(SCHOOL_EDITED);
    await catalog.save(dialog);
    await catalog.toast('Guardado').waitFor();
    await catalog.row(schoolId).filter({ hasText: SCHOOL_EDITED }).waitFor();

    await catalog.deleteRow(catalog.row(schoolId));
    const refusal = catalog.messageDialog('Error');
    await refusal.getByText('No se puede eliminar la escuela', { exact: false }).waitFor();
    await catalog.dismiss(refusal);
    await catalog.row(schoolId).waitFor();

    const spareId = await catalog.idOf(SPARE_SCHOOL);
    await catalog.deleteRow(catalog.row(spareId));
    await catalog.toast('Dato Eliminado.').waitFor();
    await catalog.row(spareId).waitFor({ state: 'detached' });
  });
});
