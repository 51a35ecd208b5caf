import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LEVELS, USER_TYPES } from '@concurso/shared';
import { createTeam, createUser, startContest } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { openSignedIn } from './pages/login-page.js';
import { ProjectorPage } from './pages/projector-page.js';

/** Teams per level: 'Básico' pages at every size, 'Intermedio' is the bar, 'Avanzado' is measured. */
const PER_LEVEL = { basico: 40, intermedio: 15, avanzado: 3 } as const;
/** The least teams a level shows at 1920x1080 before it pages (the demo has 10 per level). */
const AT_LEAST_AT_1080P = 15;

/** What the projector holds at one screen size. */
interface Capacity {
  /** Whole rows of a team with a mark under its name (no agent, as in the demo) that fit a column. */
  marked: number;
  /** The same for a row without marks (its agent online, not disqualified). */
  plain: number;
  /** The team name's font size (px). */
  nameSize: number;
}

/**
 * How many teams a level's column holds before it pages, at the three hall sizes (Chromium,
 * deviceScaleFactor 1): at 1920x1080 at least 15 with every row carrying a mark (the demo's teams
 * have no agent, so each says «agente sin conexión»), and a level of 15 shows all of them with no
 * page line. A paging level cuts as many pages as its capacity asks and balances them (40 teams
 * that need 3 pages show 14, 13, 13, not 18, 18, 4). The figures are printed; nothing is timed.
 */
describe('projector capacity', () => {
  const bed = useWebTestBed();
  let page: Page;
  let projector: ProjectorPage;
  const figures: Record<string, Capacity> = {};

  beforeAll(async () => {
    await createUser(bed.server.orm, USER_TYPES.judge, 'juez_capacidad', 'clave-capacidad');
    const { contestId } = await startContest(bed.server, 'admin_capacidad');
    for (const level of ['basico', 'intermedio', 'avanzado'] as const)
      for (let i = 1; i <= PER_LEVEL[level]; i++)
        await createTeam(
          bed.server.orm,
          contestId,
          LEVELS[level],
          `Equipo ${level} ${String(i).padStart(2, '0')}`,
        );
    ({ page } = await openSignedIn(
      bed.browser,
      bed.server.url,
      'juez_capacidad',
      'clave-capacidad',
      '/homeJuez',
      { viewport: { width: 1920, height: 1080 }, deviceScaleFactor: 1 },
    ));
    projector = new ProjectorPage(page, bed.server.url);
  });

  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
    [3840, 2160],
  ] as const) {
    it(`measures the teams per level at ${width}x${height}`, async () => {
      await page.setViewportSize({ width, height });
      await projector.open();
      await projector.column('avanzado').locator('[data-testid^="projector-row-"]').nth(2).waitFor();
      await projector.pageLabel('basico').waitFor();
      const capacity = await measure(page, 'avanzado');
      figures[`${width}x${height}`] = capacity;
      console.log(
        `Proyector ${width}x${height}: ${capacity.marked} equipos por nivel con una marca ` +
          `(sin agente), ${capacity.plain} sin marcas; nombre ${capacity.nameSize.toFixed(1)} px`,
      );

      // 'Básico' pages as its capacity asks, in balanced pages: the first holds ceil(40 / pages).
      const basico = await measure(page, 'basico');
      const pages = Math.ceil(PER_LEVEL.basico / basico.marked);
      await expect
        .poll(() => projector.pageLabel('basico').textContent())
        .toMatch(new RegExp(` de ${pages}$`));
      await projector
        .pageLabel('basico')
        .filter({ hasText: /^Página 1 de/ })
        .waitFor({ timeout: 30_000 });
      expect(await projector.order('basico')).toHaveLength(Math.ceil(PER_LEVEL.basico / pages));

      if (width === 1920) {
        expect(capacity.marked).toBeGreaterThanOrEqual(AT_LEAST_AT_1080P);
        expect(capacity.plain).toBeGreaterThanOrEqual(capacity.marked);
        // A level of 15 fits whole: every team on screen, no page line.
        expect(await projector.order('intermedio')).toHaveLength(PER_LEVEL.intermedio);
        expect(await projector.pageLabel('intermedio').count()).toBe(0);
      }
      // The name stays readable from the back of the hall: 18 px or more at every size.
      expect(capacity.nameSize).toBeGreaterThanOrEqual(18);
    });
  }

  it('prints the three figures', () => {
    console.log(`Proyector, equipos por nivel antes de paginar: ${JSON.stringify(figures)}`);
    expect(Object.keys(figures)).toHaveLength(3);
  });
});

/**
 * A level's capacity as laid out in the page: how many of its rows with a mark (a row on screen)
 * and without marks (the column's hidden plain sample row, laid out at the same width) fit its
 * list's height, whole.
 */
function measure(page: Page, level: string): Promise<Capacity> {
  return page.evaluate((level) => {
    const list = document.querySelector<HTMLElement>(`[data-testid="projector-list-${level}"]`)!;
    const row = list.querySelector<HTMLElement>('[data-testid^="projector-row-"]')!;
    const plain = list.querySelector<HTMLElement>('[data-sample="plain"]')!;
    const fits = (element: HTMLElement) =>
      Math.floor((list.getBoundingClientRect().height + 0.01) / element.getBoundingClientRect().height);
    return {
      marked: fits(row),
      plain: fits(plain),
      nameSize: parseFloat(getComputedStyle(row.querySelector('.projector-row-name')!).fontSize),
    };
  }, level);
}
