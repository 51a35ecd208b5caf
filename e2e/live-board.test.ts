import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { LEVELS, USER_TYPES } from '@concurso/shared';
import { agentTeam, createTeam, createUser, sendAttempt, startContest } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { LoginPage, openSignedIn } from './pages/login-page.js';
import { BoardPage } from './pages/board-page.js';

/**
 * The product's spine in a real browser (the live board, docs/design.md section 6): two judges' screens, a
 * block on one shown on the other without reloading, an agent's attempt raising INTENTOS, and the route
 * guard.
 */
describe('live judge board in Chromium', () => {
  const bed = useWebTestBed();
  const contexts: BrowserContext[] = [];
  let team: { id: number; name: string; key: string };
  let neighbour: number;

  beforeAll(async () => {
    await createUser(bed.server.orm, USER_TYPES.judge, 'juez_uno', 'clave-uno');
    await createUser(bed.server.orm, USER_TYPES.judge, 'juez_dos', 'clave-dos');
    const { adminToken, contestId } = await startContest(bed.server, 'admin_e2e');
    team = await agentTeam(bed.server, adminToken, {
      contestId,
      levelsId: LEVELS.intermedio,
      name: 'Los Punteros Locos',
    });
    await createTeam(bed.server.orm, contestId, LEVELS.basico, 'Hola Mundo');
    // A second team in the disqualified team's level, whose row has only the agent's badge.
    neighbour = (await createTeam(bed.server.orm, contestId, LEVELS.intermedio, 'Los Vecinos')).id;
  });

  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
  });

  async function judgeScreen(username: string, password: string): Promise<BoardPage> {
    const { page, context } = await openSignedIn(
      bed.browser,
      bed.server.url,
      username,
      password,
      '/homeJuez',
    );
    contexts.push(context);
    const board = new BoardPage(page);
    await board.connectionState().filter({ hasText: 'Conectado' }).waitFor();
    await board.row(team.id).waitFor();
    return board;
  }

  it('shows a block made on one judge screen on the other within 2 seconds, without reloading', async () => {
    const first = await judgeScreen('juez_uno', 'clave-uno');
    const second = await judgeScreen('juez_dos', 'clave-dos');
    expect(await second.toggleButton(team.id).textContent()).toBe('Bloquear');
    expect(await first.table('intermedio').textContent()).toContain('Los Punteros Locos');

    await first.toggleAndConfirm(team.id);

    await second.toggleButton(team.id).filter({ hasText: 'Desbloquear' }).waitFor({ timeout: 2_000 });
    await first.toggleButton(team.id).filter({ hasText: 'Desbloquear' }).waitFor({ timeout: 2_000 });
  });

  it('raises the INTENTOS cell on every screen when an agent reports an attempt', async () => {
    const screen = await judgeScreen('juez_uno', 'clave-uno');
    const before = Number(await screen.attempts(team.id).textContent());

    expect((await sendAttempt(bed.server.url, team.key, 'Discord.exe')).status).toBe(200);

    await screen
      .attempts(team.id)
      .filter({ hasText: String(before + 1) })
      .waitFor({ timeout: 2_000 });
  });

  it("shows a disqualified row's badges whole, inside its name's cell", async () => {
    const screen = await judgeScreen('juez_dos', 'clave-dos');
    if ((await screen.toggleButton(team.id).textContent()) === 'Bloquear')
      await screen.toggleAndConfirm(team.id);
    await screen.toggleButton(team.id).filter({ hasText: 'Desbloquear' }).waitFor();
    // The default 1280 px wide viewport shows the three levels side by side: the narrowest columns.
    // The badges were once kept on one line by cutting the agent's short ('Agent…'); now they
    // wrap instead (names wrap too, so rows were never one height with real names).
    const badges = screen.row(team.id).getByTestId('row-badges');
    const fit = await badges.evaluate((line) => {
      const box = line.closest('td')!.getBoundingClientRect();
      return Array.from(line.children).map((badge) => {
        const rect = badge.getBoundingClientRect();
        return {
          text: badge.textContent,
          whole: badge.scrollWidth <= badge.clientWidth,
          inside: rect.left >= box.left && rect.right <= box.right,
        };
      });
    });
    expect(fit).toEqual([
      { text: 'Descalificado', whole: true, inside: true },
      { text: expect.stringMatching(/^Agente (en línea|sin conexión)$/), whole: true, inside: true },
    ]);
    expect(await screen.row(neighbour).getByTestId('row-badges').textContent()).toBe('Agente sin conexión');
  });

  it("plays 'Alerta sonora' on an attempt once turned on, and remembers it after a reload", async () => {
    const screen = await judgeScreen('juez_uno', 'clave-uno');
    const page = screen.page();
    // Counts the tones the page starts through the Web Audio API (nothing else plays sound).
    await page.context().addInitScript(() => {
      const start = OscillatorNode.prototype.start;
      OscillatorNode.prototype.start = function (this: OscillatorNode, ...args: [number?]) {
        const counted = window as unknown as { alertTones?: number };
        counted.alertTones = (counted.alertTones ?? 0) + 1;
        return start.apply(this, args);
      };
    });
    const tones = () => page.evaluate(() => (window as unknown as { alertTones?: number }).alertTones ?? 0);
    await page.reload();
    await screen.row(team.id).waitFor();

    // Off by default: an attempt raises INTENTOS and plays nothing.
    expect(await screen.soundAlert().isChecked()).toBe(false);
    let attempts = Number(await screen.attempts(team.id).textContent());
    /** The agent reports one more attempt, and the board shows it. */
    const attemptShown = async () => {
      expect((await sendAttempt(bed.server.url, team.key, 'Discord.exe')).status).toBe(200);
      attempts += 1;
      await screen
        .attempts(team.id)
        .filter({ hasText: String(attempts) })
        .waitFor();
    };
    await attemptShown();
    expect(await tones()).toBe(0);

    // On after a click, and still on after a reload (remembered by this browser).
    await screen.soundAlertLabel().click();
    expect(await screen.soundAlert().isChecked()).toBe(true);
    await page.reload();
    await screen.connectionState().filter({ hasText: 'Conectado' }).waitFor();
    await screen.row(team.id).waitFor();
    expect(await screen.soundAlert().isChecked()).toBe(true);
    // The snapshot after the reload plays nothing.
    expect(await tones()).toBe(0);
    // A browser plays sound only after a click on the page: the judge's first one (any).
    await page.getByRole('heading', { name: 'Nivel Intermedio' }).click();

    await attemptShown();
    // The tone may start once the page's audio has resumed, just after the cell shows.
    await expect.poll(tones).toBe(1);

    // Off again: the next attempt is silent.
    await screen.soundAlertLabel().click();
    expect(await screen.soundAlert().isChecked()).toBe(false);
    await attemptShown();
    expect(await tones()).toBe(1);
  });

  it('sends a visitor without a token to the login screen', async () => {
    const context = await bed.browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${bed.server.url}/homeJuez`);
    await page.waitForURL(`${bed.server.url}/`);
    await page.getByRole('button', { name: 'Iniciar Sesión' }).waitFor();
  });

  it('refuses a wrong password with the spec message and its retry button', async () => {
    const context = await bed.browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    const loginPage = new LoginPage(page, bed.server.url);
    await loginPage.open();
    await loginPage.signIn('juez_uno', 'equivocada');
    const dialog = loginPage.errorDialog();
    await dialog.getByText('Usuario o contraseña incorrectos!').waitFor();
    await dialog.getByRole('button', { name: 'Intentar de nuevo' }).waitFor();
  });
});
