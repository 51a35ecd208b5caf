import { beforeAll, describe, expect, it } from 'vitest';
import type { Page, WebSocket } from 'playwright-core';
import { EVENTS, LEVELS, USER_TYPES, decodeBoardFrame, type BoardFrame } from '@concurso/shared';
import {
  connectSocket,
  createTeam,
  createUser,
  generateAgentKey,
  nextRow,
  sendAttempt,
  startContest,
} from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { openSignedIn } from './pages/login-page.js';
import { ProjectorPage } from './pages/projector-page.js';

/** The hall's projector (/proyector) live in Chromium, read-only, at the sizes of a hall screen. */
describe('projector display', () => {
  const bed = useWebTestBed();
  let page: Page;
  let projector: ProjectorPage;
  let adminToken: string;
  const teams: Record<string, { id: number }> = {};

  beforeAll(async () => {
    await createUser(bed.server.orm, USER_TYPES.judge, 'juez_sala', 'clave-sala');
    const { contestId, ...admin } = await startContest(bed.server, 'admin_sala');
    adminToken = admin.adminToken;
    teams.a = await createTeam(bed.server.orm, contestId, LEVELS.basico, 'Alfa');
    teams.b = await createTeam(bed.server.orm, contestId, LEVELS.basico, 'Beta');
    teams.c = await createTeam(bed.server.orm, contestId, LEVELS.intermedio, 'Gamma');
    ({ page } = await openSignedIn(bed.browser, bed.server.url, 'juez_sala', 'clave-sala', '/homeJuez', {
      viewport: { width: 1920, height: 1080 },
    }));
    projector = new ProjectorPage(page, bed.server.url);
  });

  it('shows the three levels side by side, with the contest and a clock, and no buttons', async () => {
    await projector.open();
    for (const level of ['basico', 'intermedio', 'avanzado'] as const)
      await projector.column(level).waitFor();
    await expect
      .poll(() => projector.order('basico'), { timeout: 3_000 })
      .toEqual([teams.a!.id, teams.b!.id]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Concurso 2026B');
    expect(await page.getByTestId('projector-clock').textContent()).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    expect(await page.getByRole('button').count()).toBe(0);
    expect(await page.locator('header, footer').count()).toBe(0);
    // The name of a row is readable from the back of a hall: at least 24 px at 1920x1080.
    expect(await projector.nameFontSize(teams.a!.id, 'Alfa')).toBeGreaterThanOrEqual(24);
  });

  it('moves a team up as its attempts grow, flashes the row and marks a disqualified team', async () => {
    const key = await generateAgentKey(bed.server.app, adminToken, teams.b!.id);
    for (let i = 0; i < 2; i++) expect((await sendAttempt(bed.server.url, key)).status).toBe(200);
    await projector.attempts(teams.b!.id).filter({ hasText: '2' }).waitFor({ timeout: 2_000 });
    await expect
      .poll(() => projector.order('basico'), { timeout: 3_000 })
      .toEqual([teams.b!.id, teams.a!.id]);
    expect(await projector.row(teams.b!.id).getAttribute('data-flash')).not.toBeNull();

    const toggle = await bed.server.app.inject({
      method: 'GET',
      url: `/api/descalificarTeam/${teams.a!.id}`,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(toggle.statusCode).toBe(200);
    await projector.row(teams.a!.id).getByText('DESCALIFICADO').waitFor({ timeout: 2_000 });
    expect(await projector.row(teams.a!.id).getAttribute('data-status')).toBe('2');
  });

  it('scales its type with the screen: twice as large at a native 3840x2160, by the height on an ultra-wide', async () => {
    const nameSize = async (width: number, height: number) => {
      await page.setViewportSize({ width, height });
      await projector.open();
      await projector.row(teams.c!.id).waitFor();
      return projector
        .row(teams.c!.id)
        .getByText('Gamma')
        .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    };
    const hd = await nameSize(1920, 1080);
    const uhd = await nameSize(3840, 2160);
    expect(uhd / hd).toBeGreaterThan(1.9);
    // 3440x1440: as large as a 1440-line 16:9 screen's, not as its width alone would make it.
    const wide = await nameSize(3440, 1440);
    expect(wide).toBeLessThan(hd * (1440 / 1080) + 1);
    expect(wide).toBeGreaterThan(hd);
    await page.setViewportSize({ width: 1920, height: 1080 });
  });

  it('shows one level with ?nivel=<id>, at 1280x720 too', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await projector.open(LEVELS.intermedio);
    await projector.row(teams.c!.id).waitFor();
    expect(await projector.column('basico').count()).toBe(0);
    await expect.poll(() => projector.order('intermedio'), { timeout: 3_000 }).toEqual([teams.c!.id]);
    expect(await projector.nameFontSize(teams.c!.id, 'Gamma')).toBeGreaterThanOrEqual(18);
  });

  it('receives only its level’s rows with ?nivel=<id> (the socket joins that level’s room)', async () => {
    const received: number[] = [];
    const watch = (ws: WebSocket) =>
      ws.on('framereceived', ({ payload }) => {
        if (typeof payload !== 'string' || !payload.startsWith(`42["${EVENTS.boardFrame}"`)) return;
        const [, frame] = JSON.parse(payload.slice(2)) as [string, BoardFrame];
        received.push(...decodeBoardFrame(frame).teams.map((team) => team.id));
      });
    page.on('websocket', watch);
    const witness = await connectSocket(bed.server.url, adminToken);
    try {
      await projector.open(LEVELS.intermedio);
      await projector.row(teams.c!.id).waitFor();
      // A change of Básico reaches a screen of every level, and not this projector…
      const basico = nextRow(witness, (row) => row.id === teams.b!.id);
      const keyB = await generateAgentKey(bed.server.app, adminToken, teams.b!.id);
      expect((await sendAttempt(bed.server.url, keyB)).status).toBe(200);
      await basico;
      // …while one of Intermedio, made after it, does.
      const keyC = await generateAgentKey(bed.server.app, adminToken, teams.c!.id);
      expect((await sendAttempt(bed.server.url, keyC)).status).toBe(200);
      await projector.attempts(teams.c!.id).filter({ hasText: '1' }).waitFor({ timeout: 3_000 });
      await expect.poll(() => received, { timeout: 3_000 }).toContain(teams.c!.id);
      expect(received).not.toContain(teams.b!.id);
    } finally {
      page.off('websocket', watch);
      witness.disconnect();
    }
  });

  it('is for staff only: a visitor without a session goes to the login screen', async () => {
    const visitor = await bed.browser.newContext();
    try {
      const other = await visitor.newPage();
      await other.goto(`${bed.server.url}/proyector`);
      await other.waitForURL(`${bed.server.url}/`);
    } finally {
      await visitor.close();
    }
  });
});
