import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { jsPDF } from 'jspdf';
import type { BrowserContext, Page } from 'playwright-core';
import { MESSAGES, PASSWORD_MESSAGES, USER_TYPES } from '@concurso/shared';
import { startAgent, type AgentHandle } from '../agent/src/agent.js';
import {
  blockedBinary,
  cleanUp,
  spawnedByTest,
  spawnProcess,
  tempDir,
  uniqueName,
  within,
} from '../agent/test/helpers/processes.js';
import { createContest, createUser, login } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { BoardPage } from './pages/board-page.js';
import { CatalogPage } from './pages/catalog-page.js';
import { ExercisesPage } from './pages/exercises-page.js';
import { LoginPage } from './pages/login-page.js';
import { TeamsPage, type MemberEntry } from './pages/teams-page.js';
import { UsersPage } from './pages/users-page.js';

const ADMIN = { username: 'admin_consola', password: 'clave-admin-1' };
const COACH = 'Dra. Carmen Ruiz';
const OTHER_COACH = 'Mtro. Jorge Pérez';
const DEPARTAMENT = 'Ciencias Computacionales';
const CAREER = 'Ingeniería en Computación';
const CAREER_OPTION = `${CAREER} (${DEPARTAMENT})`;
const TEAM = 'Los Bits Valientes';
const MEMBERS: MemberEntry[] = [
  { code: '219000001', name: 'Ana López', career: CAREER_OPTION, semester: 3 },
  { code: '219000002', name: 'Bruno Díaz', career: CAREER_OPTION, semester: 5 },
  { code: '219000003', name: 'Carla Méndez', career: CAREER_OPTION, semester: 10 },
];

/** A one-page PDF saying `text`, written by jsPDF in Node, saved as `name` in `dir`. */
async function writePdf(dir: string, name: string, text: string): Promise<string> {
  const doc = new jsPDF();
  doc.text(text, 10, 10);
  const file = path.join(dir, name);
  await writeFile(file, Buffer.from(doc.output('arraybuffer')));
  return file;
}

/**
 * The teams, exercises and users screens in a real browser (docs/spec.md section 2): an admin
 * registers a team with three members and sees them; generates its agent key and the real agent, run
 * with it, kills a blocked process and raises INTENTOS on /home; uploads an exercise PDF, opens it in a
 * new tab, replaces it and deletes it; registers a judge who then signs in, and a participant who is
 * refused.
 */
describe('teams, exercises and users screens in Chromium', () => {
  const bed = useWebTestBed();
  let page: Page;
  let catalog: CatalogPage;
  let files: string;
  let adminToken: string;
  let contestId: number;
  let teamId: number;
  let agent: AgentHandle | undefined;
  const others: BrowserContext[] = [];

  /** An admin API call made by the test itself (setup only), answering `data`. */
  async function api<T>(url: string, payload: unknown): Promise<T> {
    const res = await bed.server.app.inject({
      method: 'POST',
      url,
      payload: payload as Record<string, unknown>,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return (res.json() as { data: T }).data;
  }

  async function signIn(target: Page, username: string, password: string): Promise<void> {
    const loginPage = new LoginPage(target, bed.server.url);
    await loginPage.open();
    await loginPage.signIn(username, password);
  }

  async function newPage(): Promise<Page> {
    const other = await bed.browser.newContext();
    others.push(other);
    return other.newPage();
  }

  beforeAll(async () => {
    await createUser(bed.server.orm, USER_TYPES.admin, ADMIN.username, ADMIN.password);
    adminToken = await login(bed.server.app, ADMIN.username, ADMIN.password);
    contestId = (await createContest(bed.server.orm)).id;
    await api('/api/createCoach', { name: COACH, educationalLevel: 'Doctorado' });
    await api('/api/createCoach', { name: OTHER_COACH, educationalLevel: 'Maestría' });
    const school = await api<{ id: number }>('/api/createSchool', { name: 'Centro Universitario' });
    const departament = await api<{ id: number }>('/api/createDepartament', {
      name: DEPARTAMENT,
      type: 0,
      schools_id: school.id,
    });
    await api('/api/createCareer', { name: CAREER, departaments_id: departament.id });

    files = await mkdtemp(path.join(os.tmpdir(), 'consola-e2e-'));
    // Its context closes with the bed's browser.
    page = await (await bed.browser.newContext()).newPage();
    catalog = new CatalogPage(page, bed.server.url);
    await signIn(page, ADMIN.username, ADMIN.password);
    await page.waitForURL(`${bed.server.url}/home`);
  });

  afterAll(async () => {
    await agent?.stop();
    await cleanUp();
    await Promise.all(others.map((other) => other.close()));
    if (files) await rm(files, { recursive: true, force: true });
  });

  it('registers a team with three members and lists them under Ver integrantes', async () => {
    const teams = new TeamsPage(page, catalog);
    await teams.open();
    teamId = await teams.registerTeam(TEAM, COACH, 'Intermedio');
    const row = catalog.row(teamId);
    for (const text of [COACH, 'Intermedio', '2026B', 'Activo'])
      expect(await row.textContent()).toContain(text);

    const empty = await teams.openMembers(row);
    await empty.getByText('No se encontraron participantes.').waitFor();
    await empty.getByRole('button', { name: 'Cerrar' }).click();
    await empty.waitFor({ state: 'hidden' });

    const form = await teams.openMembersForm(row, TEAM);
    // One empty row to start; an incomplete row is refused with the docs/spec.md section 5 texts.
    expect(await teams.memberRows(form).count()).toBe(1);
    await form.getByRole('button', { name: 'Guardar' }).click();
    const warning = catalog.messageDialog('Información');
    await warning.getByText('Por favor llene todos los campos correctamente').waitFor();
    await catalog.dismiss(warning);
    expect(await teams.memberRow(form, 1).getByText('Este campo es requerido').count()).toBe(4);

    await teams.fillMembers(form, MEMBERS);
    expect(await teams.memberRows(form).count()).toBe(3);
    await form.getByRole('button', { name: 'Guardar' }).click();
    await form.waitFor({ state: 'hidden' });
    await catalog.toast('Registrado').first().waitFor();

    const list = await teams.openMembers(row);
    await list.getByText(MEMBERS[2]!.name).waitFor();
    for (const member of MEMBERS) {
      const line = list.locator('tbody tr').filter({ hasText: member.name });
      const text = await line.textContent();
      expect(text).toContain(member.code);
      expect(text).toContain(String(member.semester));
      expect(text).toContain(CAREER);
    }
    await list.getByRole('button', { name: 'Cerrar' }).click();
    await list.waitFor({ state: 'hidden' });

    // Removing a member asks first, then the list follows.
    const extra = await teams.openMembersForm(row, TEAM);
    await teams.fillMembers(extra, [
      { code: '219000099', name: 'Dario Baja', career: CAREER_OPTION, semester: 1 },
    ]);
    await extra.getByRole('button', { name: 'Guardar' }).click();
    await extra.waitFor({ state: 'hidden' });
    const again = await teams.openMembers(row);
    const leaving = again.locator('tbody tr').filter({ hasText: 'Dario Baja' });
    await leaving.getByRole('button', { name: 'Quitar' }).click();
    const question = page.getByRole('alertdialog', { name: '¿Está seguro?' });
    await question.getByText('Dario Baja', { exact: false }).waitFor();
    await question.getByRole('button', { name: 'Sí, eliminar' }).click();
    await leaving.waitFor({ state: 'detached' });
    expect(await again.locator('tbody tr').count()).toBe(3);
    await again.getByRole('button', { name: 'Cerrar' }).click();
    await again.waitFor({ state: 'hidden' });
  });

  it("edits a team's name, coach and level through 'Editar Equipo': 'Guardado' and the new row", async () => {
    const teams = new TeamsPage(page, catalog);
    await teams.open();
    const row = catalog.row(teamId);
    const edited = `${TEAM} Reloaded`;
    // The form sends the team's own contest with every save: that answered 500 although it saved.
    const dialog = await catalog.openEdit(row, 'Editar Equipo');
    expect(await dialog.getByLabel('Nombre').inputValue()).toBe(TEAM);
    await dialog.getByLabel('Nombre').fill(edited);
    await dialog.getByLabel('Coach').selectOption({ label: OTHER_COACH });
    await dialog.getByLabel('Nivel').selectOption({ label: 'Avanzado' });
    await catalog.save(dialog);
    await catalog.toast('Guardado').waitFor();
    expect(await catalog.messageDialog('Error').count()).toBe(0);
    await row.filter({ hasText: edited }).waitFor();
    for (const text of [OTHER_COACH, 'Avanzado', '2026B', 'Activo'])
      expect(await row.textContent()).toContain(text);

    // And back, the same way, for the tests that follow.
    const back = await catalog.openEdit(row, 'Editar Equipo');
    await back.getByLabel('Nombre').fill(TEAM);
    await back.getByLabel('Coach').selectOption({ label: COACH });
    await back.getByLabel('Nivel').selectOption({ label: 'Intermedio' });
    await catalog.save(back);
    await row.filter({ hasText: TEAM }).filter({ hasText: 'Intermedio' }).waitFor();
  });

  it('generates the agent key; the real agent using it raises INTENTOS on /home', async () => {
    const teams = new TeamsPage(page, catalog);
    await teams.open();
    const { key, command, windows, linux, dialog } = await teams.generateAgentKey(catalog.row(teamId));
    expect(key.length).toBeGreaterThan(20);
    // The key goes to an owner-only file, never on the agent's command line.
    expect(command).toBe(
      `(umask 077; printf '%s' '${key}' > ~/concurso-agent.key) && ` +
        `npm run agent -- --server ${bed.server.url} --key-file ~/concurso-agent.key`,
    );
    // The lab's single executables installed as services. This server has no PUBLIC_URL: the browser's
    // address is offered, and it is this very machine (127.0.0.1), so the dialog warns.
    const server = dialog.getByTestId('agent-server');
    expect(await server.inputValue()).toBe(bed.server.url);
    await dialog
      .getByText('El servidor no tiene PUBLIC_URL: se propone la dirección de este navegador.')
      .waitFor();
    expect(await dialog.getByTestId('agent-server-local').innerText()).toBe(
      'Esta dirección solo funciona en este mismo equipo: escriba la dirección que las máquinas del laboratorio usan para llegar al servidor.',
    );
    expect(windows).toContain(`-Value '${key}'; `);
    expect(windows).toContain(`<Arguments>--server ${bed.server.url} --key-file `);
    expect(linux).toContain(`printf '%s' '${key}' > /etc/concurso-agent/clave`);
    expect(linux).toContain(
      `'ExecStart=/usr/local/bin/concurso-agent --server ${bed.server.url} --key-file /etc/concurso-agent/clave'`,
    );
    // The files to copy, named as `npm run agent:build` names them for the agent's version.
    const version = (
      JSON.parse(await readFile(new URL('../agent/package.json', import.meta.url), 'utf8')) as {
        version: string;
      }
    ).version;
    const linuxFile = `concurso-agent-${version}-linux-x64`;
    const windowsFile = `concurso-agent-${version}-win-x64.exe`;
    expect(linux.startsWith(`install -m 0755 ${linuxFile} /usr/local/bin/concurso-agent && `)).toBe(true);
    expect(windows).toContain(`$exe = '${windowsFile}'; `);
    // The text reads as sentences: each piece of code stands between spaces, never against a bracket
    // or a comma (its padded box made «( npm run agent:build , ver» look spaced).
    expect(await dialog.getByTestId('agent-install-intro').innerText()).toBe(
      'Compile el agente una vez con npm run agent:build y encontrará en agent/dist/bin/ un archivo por ' +
        'sistema, que no necesita Node.js en las máquinas; los detalles están en el archivo agent/README.md del proyecto.',
    );
    expect(await dialog.getByText('Linux: copie', { exact: false }).innerText()).toBe(
      `Linux: copie ${linuxFile} a la máquina, abra en esa carpeta una terminal de root con sudo -s y ejecute ` +
        'este comando. Lo instala como /usr/local/bin/concurso-agent y guarda la clave; un servicio de systemd ' +
        'lo inicia al arrancar la máquina y de nuevo si se detiene.',
    );
    expect(await dialog.getByText('Windows: copie', { exact: false }).innerText()).toBe(
      `Windows: copie ${windowsFile} a la máquina, abra PowerShell como administrador en esa carpeta y ` +
        'ejecute este comando. Lo copia como C:\\ProgramData\\concurso-agent\\concurso-agent.exe y guarda la ' +
        'clave; una tarea programada lo inicia como SYSTEM al arrancar la máquina y de nuevo si se detiene.',
    );
    const codeNeighbours = await dialog
      .locator('p code')
      .evaluateAll((codes) =>
        codes.map((code) => [code.previousSibling?.textContent?.at(-1), code.nextSibling?.textContent?.[0]]),
      );
    expect(codeNeighbours.length).toBe(8);
    expect(codeNeighbours.flat().every((char) => char === ' ')).toBe(true);
    // The admin types the address the lab uses: the warning goes and every command follows it.
    await server.fill('10.1.2.3:3000');
    await dialog.getByTestId('agent-server-local').waitFor({ state: 'detached' });
    expect(await dialog.getByTestId('agent-command-linux').inputValue()).toContain(
      "'ExecStart=/usr/local/bin/concurso-agent --server http://10.1.2.3:3000 --key-file /etc/concurso-agent/clave'",
    );
    expect(await dialog.getByTestId('agent-command-windows').inputValue()).toContain(
      '<Arguments>--server http://10.1.2.3:3000 --key-file ',
    );
    expect(await dialog.getByTestId('agent-command').inputValue()).toContain(
      '--server http://10.1.2.3:3000 ',
    );
    // An address with a path is refused, with no command to copy.
    await server.fill('http://10.1.2.3:3000/concurso');
    await dialog
      .getByText('Escriba la dirección del servidor como http://192.168.1.10:3000', { exact: false })
      .waitFor();
    expect(await dialog.getByTestId('agent-command-linux').count()).toBe(0);
    await server.fill('localhost:3000');
    await dialog.getByTestId('agent-server-local').waitFor();
    await dialog.getByText('no se volverá a mostrar', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Cerrar' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The contest's blocked set gets a name only this run uses.
    const blocked = uniqueName('juego');
    const process = await api<{ id: number }>('/api/createProcess', { name: `${blocked}.exe` });
    await api('/api/createBlockedProcessForContest', { contests_id: contestId, processes_id: [process.id] });

    agent = await startAgent({
      server: bed.server.url,
      key,
      dataDir: await tempDir('consola-agent-'),
      lister: spawnedByTest(),
      pollMs: 200,
      log: () => undefined,
    });
    expect(agent.config.team.id).toBe(teamId);
    const spawned = await spawnProcess(await blockedBinary(blocked), ['300']);
    const exit = await within(5_000, spawned.exited, 'el agente termina el proceso bloqueado');
    expect(exit.signal).toMatch(/SIGTERM|SIGKILL/);

    await page.goto(`${bed.server.url}/home`);
    const board = new BoardPage(page);
    await board.attempts(teamId).filter({ hasText: /^1$/ }).waitFor({ timeout: 10_000 });
    await agent.stop();
    agent = undefined;

    // A second key asks first: the old one would stop working.
    await teams.open();
    await catalog.row(teamId).getByRole('button', { name: 'Clave del agente' }).click();
    const question = page.getByRole('alertdialog', { name: '¿Generar una nueva clave del agente?' });
    await question.getByText('dejará de funcionar', { exact: false }).waitFor();
    await question.getByRole('button', { name: 'Cancelar' }).click();
    await question.waitFor({ state: 'hidden' });
  });

  it('uploads an exercise PDF, opens it in a new tab, replaces it and deletes it', async () => {
    const first = await writePdf(files, 'problema-a.pdf', 'Problema A');
    const second = await writePdf(files, 'problema-b.pdf', 'Problema B');
    const exercises = new ExercisesPage(page, catalog);
    await exercises.open();

    // The PDF and the level are required.
    const dialog = await catalog.openCreate('Registrar ejercicios', 'Registrar ejercicios');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await catalog.dismiss(catalog.messageDialog('Información'));
    expect(await dialog.getByText('Este campo es requerido').count()).toBe(2);
    expect(await dialog.getByLabel('Nivel').locator('option').first().textContent()).toBe(
      'Seleccione el nivel...',
    );
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // A slow upload shows its percentage; 'Cancelar' aborts it and the modal stays open.
    const big = path.join(files, 'problema-grande.pdf');
    await writeFile(big, Buffer.concat([await readFile(first), Buffer.alloc(3_000_000, 0x20)]));
    const upload = await exercises.fillNew(big, 'Básico');
    await exercises.throttleUploads(256 * 1024);
    await upload.getByRole('button', { name: 'Guardar' }).click();
    await exercises
      .uploadPercent()
      .filter({ hasText: /^\d+ %$/ })
      .waitFor();
    await exercises.cancelUpload();
    await catalog.toast('Se canceló la carga del archivo.').waitFor();
    await exercises.throttleUploads(null);
    expect(await upload.isVisible()).toBe(true);

    await upload.getByLabel('Archivo PDF').setInputFiles(first);
    await upload.getByText('problema-a.pdf').waitFor();
    await catalog.save(upload);
    const id = await catalog.idOf('problema-a.pdf');
    // Nothing of the cancelled upload was kept.
    expect(await catalog.info().textContent()).toBe('Mostrando del 1 al 1 de 1 registros');
    const row = catalog.row(id);
    expect(await row.textContent()).toContain('Básico');
    expect(await row.textContent()).toContain('2026B');

    const list = await exercises.openList(row);
    await list.getByText('problema-a.pdf').waitFor();
    await list.getByRole('button', { name: 'Cerrar' }).click();
    await list.waitFor({ state: 'hidden' });

    // The tab reads the PDF at a URL ending in its own name, served inline under that name
    // (Chromium's viewer titles the tab from it, and a saved copy is 'problema-a.pdf', not a UUID).
    const { tab, pdf } = await exercises.openPdf(row);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect(pdf.headers()['content-disposition']).toBe('inline; filename=problema-a.pdf');
    await tab.waitForURL(/\/problema-a\.pdf\?ticket=/, { waitUntil: 'commit' });
    const opened = new URL(tab.url());
    expect(opened.origin).toBe(bed.server.url);
    expect(opened.pathname).toBe(`/api/exercisePdf/${id}/problema-a.pdf`);
    // The tab's title as the browser shows it: the name, once the viewer has the PDF.
    await expect.poll(() => exercises.tabTitle(tab), { timeout: 15_000 }).toBe('problema-a.pdf');
    await tab.close();

    await exercises.replace(row, second);
    await catalog.toast('Guardado').first().waitFor();
    await row.filter({ hasText: 'problema-b.pdf' }).waitFor();

    await catalog.deleteRow(row);
    await catalog.toast('Dato Eliminado.').first().waitFor();
    await row.waitFor({ state: 'detached' });
  });

  it('registers a judge who can then sign in and lands on /homeJuez', async () => {
    const users = new UsersPage(catalog);
    await users.open('/usersJuez', 'Información de los usuarios Jueces');
    const dialog = await users.openCreate();
    const box = dialog.getByRole('checkbox', { name: '¿Cambiar contraseña?' });
    expect(await box.isChecked()).toBe(true);
    expect(await box.isDisabled()).toBe(true);
    // A password with the username in it is refused under its field, in Spanish, before any request
    // (with docs/spec.md section 5's 'Información' warning first).
    await users.fill(dialog, { name: 'Juez Nuevo', username: 'juez_nuevo', password: 'juez_nuevo-2026' });
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await catalog.dismiss(catalog.messageDialog(MESSAGES.info));
    await dialog.getByText(PASSWORD_MESSAGES.containsUsername).waitFor();
    await users.fill(dialog, { name: 'Juez Nuevo', username: 'juez_nuevo', password: 'clave-juez-9' });
    await catalog.save(dialog);
    const judgeId = await catalog.idOf('juez_nuevo');

    // Editing keeps the password unless the box is ticked.
    const edit = await catalog.openEdit(catalog.row(judgeId), 'Editar Usuario');
    expect(await edit.getByLabel('Password').count()).toBe(0);
    await edit.getByLabel('Nombre completo').fill('Juez Nuevo Pérez');
    await catalog.save(edit);
    await catalog.row(judgeId).filter({ hasText: 'Juez Nuevo Pérez' }).waitFor();

    const judgePage = await newPage();
    await signIn(judgePage, 'juez_nuevo', 'clave-juez-9');
    await judgePage.waitForURL(`${bed.server.url}/homeJuez`);
  });

  it('registers a participant (no password), whose login is answered as any wrong password', async () => {
    const users = new UsersPage(catalog);
    await users.open('/usersParticipants', 'Información de los usuarios Participantes');
    const dialog = await users.openCreate();
    expect(await dialog.getByLabel('Password').count()).toBe(0);
    expect(await dialog.getByRole('checkbox').count()).toBe(0);
    await users.fill(dialog, { name: 'Ana López', username: 'ana_participante' });
    await catalog.save(dialog);
    await catalog.idOf('ana_participante');

    const participantPage = await newPage();
    await signIn(participantPage, 'ana_participante', 'cualquier-clave');
    // The answer must not tell that the username exists.
    await participantPage.getByRole('alertdialog').getByText(MESSAGES.loginInvalid).waitFor();
  });
});
