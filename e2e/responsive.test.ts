import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsPDF } from 'jspdf';
import type { BrowserContext, Page } from 'playwright-core';
import { LEVELS, USER_TYPES } from '@concurso/shared';
import {
  HttpApi,
  blockProcesses,
  createUser,
  injectAttempts,
  injectObserved,
  observedEntry,
  type TestServer,
} from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { ROUTE_PATHS } from '../web/src/app/route-paths.js';
import { AppShell } from './pages/app-shell.js';
import { openSignedIn } from './pages/login-page.js';
import {
  axeFindings,
  focusFromTop,
  hasVisibleFocus,
  horizontalOverflow,
  overflowCulprits,
  settle,
  tabTo,
} from './pages/route-checks.js';

const ADMIN = { username: 'admin_pantallas', password: 'clave-admin' };
const JUDGE = { username: 'juez_pantallas', password: 'clave-juez' };
/** A phone held upright and a common laptop. */
const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  laptop: { width: 1366, height: 768 },
} as const;
const TEAMS = [
  'Los Bits Valientes',
  'Compiladores Anónimos',
  'Hackers del Norte',
  'Recursión Infinita',
  'Punteros Colgantes',
  'Segmentation Fault',
];

/** The routes a role opens from the route table (the login is walked signed out). */
const ADMIN_PATHS = ROUTE_PATHS.filter((route) => route.access !== 'anyone').map((route) => route.path);
const JUDGE_PATHS = ROUTE_PATHS.filter((route) => route.access === 'staff').map((route) => route.path);

/**
 * Every screen on every device, for every person: every route of the route table
 * (`web/src/app/route-paths.ts`, so a route added later is walked too) at a phone's width (390x844)
 * and a laptop's (1366x768), as an administrator, as a judge (their routes) and signed out (the
 * login), with data in the tables: no sideways scroll of the page and no serious or critical axe-core
 * finding, on the screens and (on the phone) in their 'Registrar …' and 'Importar' dialogs. Below
 * 768 px the header is one 'Menú' that the keyboard opens and follows; a table keeps its rows one line
 * high and scrolls in its own box, its pagination wraps; Tab reaches a row's action with a visible
 * focus ring at every stop, and Enter runs it.
 */
describe('every route on a phone and a laptop', () => {
  const bed = useWebTestBed();
  let admin: Page;
  let judge: Page;
  /** The login screen, signed out: one page for both sizes (resized, as the signed-in ones are). */
  let signedOut: Page;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    await createUser(bed.server.orm, USER_TYPES.admin, ADMIN.username, ADMIN.password);
    await createUser(bed.server.orm, USER_TYPES.judge, JUDGE.username, JUDGE.password);
    for (const name of ['ana_participa', 'beto_participa', 'caro_participa'])
      await createUser(bed.server.orm, USER_TYPES.participant, name, null);
    await seedContest(bed.server);

    for (const [user, landing] of [
      [ADMIN, '/home'],
      [JUDGE, '/homeJuez'],
    ] as const) {
      const signed = await openSignedIn(bed.browser, bed.server.url, user.username, user.password, landing, {
        viewport: VIEWPORTS.phone,
      });
      contexts.push(signed.context);
      if (user === ADMIN) admin = signed.page;
      else judge = signed.page;
    }
    const context = await bed.browser.newContext({ viewport: VIEWPORTS.phone });
    contexts.push(context);
    signedOut = await context.newPage();
    await signedOut.goto(`${bed.server.url}/`);
  });

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
  });

  /**
   * Opens each of `paths` on `page` and answers what is wrong there, one line per problem: the page
   * scrolling sideways (with the elements past the edge) and axe-core's serious and critical findings.
   * With `dialogs`, also opens each of the screen's 'Registrar …' and 'Importar' dialogs: axe over it
   * (its form's labels) and its right edge within the screen.
   */
  async function walk(page: Page, paths: readonly string[], dialogs = false): Promise<string[]> {
    const shell = new AppShell(page);
    const problems: string[] = [];
    for (const path of paths) {
      await shell.navigate(path);
      await page.waitForURL(`${bed.server.url}${path}`);
      await settle(page);
      const overflow = await horizontalOverflow(page);
      if (overflow > 0) {
        problems.push(
          `${path}: la página se desplaza ${overflow}px: ${(await overflowCulprits(page)).join(', ')}`,
        );
      }
      for (const finding of await axeFindings(page)) {
        problems.push(
          `${path}: axe ${finding.impact} ${finding.id} (${finding.help}): ${finding.targets.join(' | ')}`,
        );
      }
      if (dialogs) problems.push(...(await checkDialogs(page, path)));
    }
    return problems;
  }

  /** Opens, checks and closes (Escape) each dialog the screen's own buttons open; answers the problems. */
  async function checkDialogs(page: Page, path: string): Promise<string[]> {
    const problems: string[] = [];
    const openers = page.locator('main').getByRole('button', { name: /^(Registrar|Importar)/ });
    for (let index = 0; index < (await openers.count()); index += 1) {
      const opener = openers.nth(index);
      const name = `${path} '${await opener.textContent()}'`;
      await opener.click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await settle(page);
      const box = await dialog.boundingBox();
      const width = page.viewportSize()!.width;
      if (box && box.x + box.width > width)
        problems.push(`${name}: el diálogo pasa del borde (${box.x + box.width}px)`);
      for (const finding of await axeFindings(page)) {
        problems.push(
          `${name}: axe ${finding.impact} ${finding.id} (${finding.help}): ${finding.targets.join(' | ')}`,
        );
      }
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    }
    return problems;
  }

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`draws every route an administrator opens on a ${name} (${viewport.width}x${viewport.height})`, async () => {
      await admin.setViewportSize(viewport);
      // The dialogs on the phone only: their labels do not change with the width, their fit does.
      expect(await walk(admin, ADMIN_PATHS, viewport === VIEWPORTS.phone)).toEqual([]);
    }, 120_000);

    it(`draws every route a judge opens on a ${name}`, async () => {
      await judge.setViewportSize(viewport);
      expect(await walk(judge, JUDGE_PATHS)).toEqual([]);
    }, 60_000);

    it(`draws the login screen on a ${name}, signed out`, async () => {
      await signedOut.setViewportSize(viewport);
      await settle(signedOut);
      expect(await horizontalOverflow(signedOut)).toBe(0);
      expect(await axeFindings(signedOut)).toEqual([]);
      // Its last use: closed, it draws nothing while the signed-in journeys go on.
      if (viewport === VIEWPORTS.laptop) await signedOut.context().close();
    });
  }

  it('folds the header into one Menú below 768 px that the keyboard opens and follows', async () => {
    const shell = new AppShell(admin);
    await admin.setViewportSize(VIEWPORTS.laptop);
    await shell.navigate('/home');
    await settle(admin);
    // Wide: the menus and 'Cerrar Sesión' in the bar, no 'Menú'.
    expect(
      await shell
        .nav()
        .getByRole('button', { name: /^Equipos/ })
        .isVisible(),
    ).toBe(true);
    expect(await shell.logoutButton().isVisible()).toBe(true);
    expect(await shell.compactMenuButton().isVisible()).toBe(false);

    await admin.setViewportSize(VIEWPORTS.phone);
    await shell.compactMenuButton().waitFor();
    expect(await shell.logoutButton().isVisible()).toBe(false);
    // One line: the wrapped header took 194 of 844 px before (40 % of the screen with the banner).
    const header = await shell.header().boundingBox();
    expect(header!.height).toBeLessThan(VIEWPORTS.phone.height * 0.1);

    // From the top, Tab reaches 'Menú' with a focus ring; Enter opens it; the arrows reach 'Equipos';
    // Enter follows it.
    await settle(admin);
    await focusFromTop(admin);
    expect(await tabTo(admin, 'header button')).toEqual([]);
    expect(await admin.locator('*:focus').textContent()).toMatch(/^Menú/);
    await admin.keyboard.press('Enter');
    const menu = shell.openMenu();
    await menu.waitFor();
    await settle(admin);
    expect(await axeFindings(admin)).toEqual([]);
    for (const link of [
      'Concursos',
      'Ejercicios',
      'Equipos',
      'Procesos',
      'Bitácora',
      'Jueces',
      'Cerrar Sesión',
    ])
      expect(await menu.getByRole('menuitem', { name: link, exact: true }).count(), link).toBe(1);
    await shell.chooseByKeyboard('Equipos');
    await admin.waitForURL(`${bed.server.url}/teams`);
    await menu.waitFor({ state: 'hidden' });
  });

  it("keeps a table's rows one line high on a phone, scrolling it in its box, and wraps its pagination", async () => {
    const shell = new AppShell(admin);
    await admin.setViewportSize(VIEWPORTS.phone);
    await shell.navigate('/teams');
    await settle(admin);
    const table = admin.getByTestId('data-table');
    const box = await table.locator('table').evaluate((el) => {
      const scroller = el.parentElement!;
      return {
        overflowX: getComputedStyle(scroller).overflowX,
        scrolls: scroller.scrollWidth > scroller.clientWidth,
        rowHeights: Array.from(el.querySelectorAll('tbody tr')).map(
          (row) => row.getBoundingClientRect().height,
        ),
        headerHeight: el.querySelector('thead tr')!.getBoundingClientRect().height,
      };
    });
    expect(box.overflowX).toBe('auto');
    expect(box.scrolls).toBe(true);
    expect(box.rowHeights).toHaveLength(5);
    // A row is as high as its tallest control (an extra-small button), never a column of stacked ones.
    for (const height of box.rowHeights) expect(height).toBeLessThan(box.headerHeight * 1.6);
    expect(await horizontalOverflow(admin)).toBe(0);

    // 47 processes: 10 pages of 5, whose buttons wrap onto a second line within the screen.
    await shell.navigate('/process');
    await settle(admin);
    const paging = await admin.getByRole('navigation', { name: 'Paginación' }).boundingBox();
    const button = await admin.getByRole('button', { name: 'Página 1', exact: true }).boundingBox();
    expect(paging!.x + paging!.width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    expect(paging!.height).toBeGreaterThan(button!.height * 1.5);
  });

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`reaches a row's action by Tab on a ${name}, with a focus ring at every stop, and runs it with Enter`, async () => {
      const shell = new AppShell(admin);
      await admin.setViewportSize(viewport);
      await shell.navigate('/teams');
      await settle(admin);
      // From the top of the page, as a fresh load leaves Tab's starting point: the header, the screen's
      // buttons, the toolbar, the sortable headers.
      await focusFromTop(admin);
      expect(await tabTo(admin, 'tbody tr button')).toEqual([]);
      const focused = admin.locator('*:focus');
      expect(await focused.textContent()).toBe('Ver integrantes');
      expect(await hasVisibleFocus(focused)).toBe(true);
      await admin.keyboard.press('Enter');
      const dialog = admin.getByRole('dialog');
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('Integrantes');
      await settle(admin);
      expect(await axeFindings(admin)).toEqual([]);
      await admin.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    }, 60_000);
  }

  it("gives a judge's Menú only a judge's links and signs out from it by keyboard", async () => {
    const shell = new AppShell(judge);
    await judge.setViewportSize(VIEWPORTS.phone);
    await shell.navigate('/homeJuez');
    await settle(judge);
    await focusFromTop(judge);
    expect(await tabTo(judge, 'header button')).toEqual([]);
    await judge.keyboard.press('Enter');
    const menu = shell.openMenu();
    await menu.waitFor();
    const items = await menu.getByRole('menuitem').allTextContents();
    expect(items).toContain('Bitácora');
    for (const adminLink of ['Concursos', 'Equipos', 'Procesos', 'Jueces'])
      expect(items).not.toContain(adminLink);
    await shell.chooseByKeyboard('Cerrar Sesión');
    await judge.waitForURL(`${bed.server.url}/`);
  });
});

/**
 * The data the tables show: an active contest with six teams over the three levels, two members, the
 * common forbidden processes (47, so /process pages), a blocked set, an exercise PDF, two attempts, a
 * disqualified team (a status change in /bitacora) and a few executables observed on a machine.
 */
async function seedContest(server: TestServer): Promise<void> {
  const api = await HttpApi.signIn(server.url, ADMIN.username, ADMIN.password);
  const contestId = await api.createContest('2026-11-21');
  const coach = await api.createCoach('Dra. Carmen Ruiz de la Torre');
  const { careerIds } = await api.createCareers(['Ingeniería en Computación', 'Licenciatura en Informática']);
  const levels = [LEVELS.basico, LEVELS.intermedio, LEVELS.avanzado];
  const teams: { id: number }[] = [];
  for (const [index, name] of TEAMS.entries())
    teams.push(await api.createTeam(name, levels[index % 3]!, coach));
  const [first, second] = teams as [{ id: number }, { id: number }];
  await api.data('/api/createMember', [
    {
      code: '219000001',
      name: 'Ana López Hernández',
      semester: 3,
      teams_id: first.id,
      careers_id: careerIds[0],
    },
    { code: '219000002', name: 'Bruno Díaz', semester: 5, teams_id: first.id, careers_id: careerIds[1] },
  ]);
  await api.data('/api/addCommonProcesses', {});
  await blockProcesses(server.orm, contestId, ['chrome.exe', 'Discord.exe', 'Code.exe']);

  const pdf = new jsPDF();
  pdf.text('Ejercicio 1: suma de dos números', 10, 10);
  const form = new FormData();
  form.set('levels_id', String(LEVELS.basico));
  form.set('path', new Blob([pdf.output('arraybuffer')], { type: 'application/pdf' }), 'ejercicio-uno.pdf');
  const upload = await fetch(`${server.url}/api/createExercise`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.token}` },
    body: form,
  });
  if (!upload.ok) throw new Error(`createExercise: ${upload.status} ${await upload.text()}`);

  const key = await api.generateAgentKey(first.id);
  const attempts = await injectAttempts(server.app, key, ['chrome.exe', 'Discord.exe']);
  if (attempts.statusCode !== 200) throw new Error(`attempts: ${attempts.statusCode} ${attempts.body}`);
  const observed = await injectObserved(server.app, key, [
    observedEntry('notepad.exe', 'a'.repeat(64)),
    observedEntry('python.exe', 'b'.repeat(64), { starts: 3 }),
  ]);
  if (observed.statusCode !== 200) throw new Error(`observed: ${observed.statusCode} ${observed.body}`);
  await api.data(`/api/descalificarTeam/${second.id}`);
}
