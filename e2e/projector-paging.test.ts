import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LEVELS, USER_TYPES } from '@concurso/shared';
import { createTeam, createUser, generateAgentKey, sendAttempt, startContest } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { openSignedIn } from './pages/login-page.js';
import { ProjectorPage } from './pages/projector-page.js';

type Level = 'basico' | 'intermedio' | 'avanzado';
const LEVEL_KEYS: Level[] = ['basico', 'intermedio', 'avanzado'];

/** What the page records of one level each time its list changes (see `recordSnapshots`). */
interface Snapshot {
  label: string | null;
  names: string[];
  problems: string[];
}

// Long names of a real hall: several words, one long unbroken word, accents.
const LONG_NAMES = [
  'Universidad Autónoma de Guadalajara — Los Compiladores Nocturnos del Centro Universitario',
  'Supercalifragilisticoespialidoso_Hackers_Sin_Espacios_2026',
  'Instituto Tecnológico de Estudios Superiores de Occidente, Equipo de Algoritmos Voraces',
  'Facultad de Ciencias Físico-Matemáticas: Los Recursivos Que Nunca Terminan su Caso Base',
  'Centro Universitario de Ciencias Exactas e Ingenierías, Programadores del Turno Vespertino',
  'Escuela Superior de Cómputo: Los Punteros Colgantes y sus Fugas de Memoria Legendarias',
  'Universidad de Guanajuato — Campus Irapuato-Salamanca, División de Ingenierías, Equipo Dijkstra',
];
/** The disqualified team: the one name the hall must read whole (it was cut to "M…"). */
const DISQUALIFIED_NAME = 'Máquinas de Turing Descalificadas por Ejecutar Procesos Prohibidos en la Sala B';
/** Teams per level: enough that 'Básico' pages even at 3840x2160, 'Avanzado' fits at every size. */
const PER_LEVEL: Record<Level, number> = { basico: 30, intermedio: 12, avanzado: 4 };
/** Paging period for the test (s): short, so a whole cycle takes seconds, not minutes. */
const SEGUNDOS = 3;

/**
 * The projector, readable in any hall: at 1280x720, 1920x1080 and 3840x2160 with more
 * teams than fit, each level pages by itself ('Página 1 de N'), every team appears within one paging
 * cycle, and every name on screen is whole (no ellipsis, nothing past its box, no row cut at the
 * bottom), the disqualified team's long name included. A failure saves a screenshot under
 * test-results/ and names it in the error.
 */
describe('projector paging', () => {
  const bed = useWebTestBed();
  let page: Page;
  let projector: ProjectorPage;
  let adminToken: string;
  const expected: Record<Level, string[]> = { basico: [], intermedio: [], avanzado: [] };
  /** Team ids by name. */
  const ids = new Map<string, number>();

  beforeAll(async () => {
    await createUser(bed.server.orm, USER_TYPES.judge, 'juez_paginas', 'clave-paginas');
    const started = await startContest(bed.server, 'admin_paginas');
    const contestId = started.contestId;
    adminToken = started.adminToken;
    let longIndex = 0;
    for (const level of LEVEL_KEYS) {
      for (let i = 1; i <= PER_LEVEL[level]; i++) {
        // Every seventh team of a level has a long name; the rest are short and numbered.
        const name =
          i % 7 === 3
            ? LONG_NAMES[longIndex++ % LONG_NAMES.length]!
            : `Equipo ${level} ${String(i).padStart(2, '0')}`;
        expected[level].push(name);
        ids.set(name, (await createTeam(bed.server.orm, contestId, LEVELS[level], name)).id);
      }
    }
    const disqualified = await createTeam(bed.server.orm, contestId, LEVELS.basico, DISQUALIFIED_NAME);
    expected.basico.push(DISQUALIFIED_NAME);
    const toggle = await bed.server.app.inject({
      method: 'GET',
      url: `/api/descalificarTeam/${disqualified.id}`,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(toggle.statusCode).toBe(200);

    ({ page } = await openSignedIn(
      bed.browser,
      bed.server.url,
      'juez_paginas',
      'clave-paginas',
      '/homeJuez',
      {
        viewport: { width: 1280, height: 720 },
      },
    ));
    projector = new ProjectorPage(page, bed.server.url);
  });

  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
    [3840, 2160],
  ] as const) {
    it(`at ${width}x${height}, pages every level that does not fit and shows every name whole`, async () => {
      try {
        await page.setViewportSize({ width, height });
        await projector.open(undefined, SEGUNDOS);
        await projector.column('basico').waitFor();
        await recordSnapshots(page);
        // 'Básico' has more rows than any of these screens holds.
        await projector.pageLabel('basico').waitFor();
        const label = await projector.pageLabel('basico').textContent();
        const pages = Number(/^Página \d+ de (\d+)$/.exec(label ?? '')?.[1]);
        expect(pages, label ?? '').toBeGreaterThanOrEqual(2);

        // Until each paging level went once round all its pages (no timing asserted, only the order).
        let snapshots: Record<Level, Snapshot[]> = { basico: [], intermedio: [], avanzado: [] };
        await expect
          .poll(
            async () => {
              snapshots = await readSnapshots(page);
              return LEVEL_KEYS.every((level) => cycleOf(snapshots[level]) !== 'incomplete');
            },
            { timeout: 90_000, interval: 500 },
          )
          .toBe(true);
        for (const level of LEVEL_KEYS) {
          const problems = snapshots[level].flatMap((s) => s.problems);
          expect(problems, `${level}: names cut or rows outside the column`).toEqual([]);
          const cycle = cycleOf(snapshots[level]);
          if (cycle === 'incomplete') throw new Error(`${level}: no whole paging cycle seen`);
          // Every team of the level within one cycle (one page when the level fits), pages in the
          // board's order: all at 0 attempts, so by name.
          expect(cycle.seen, level).toEqual([...expected[level]].sort(new Intl.Collator('es').compare));
          expect(cycle.labels).toEqual(
            cycle.pages > 1
              ? Array.from({ length: cycle.pages }, (_, i) => `Página ${i + 1} de ${cycle.pages}`)
              : [],
          );
        }
        // 'Avanzado' fits at every size: no page line.
        expect(await projector.pageLabel('avanzado').count()).toBe(0);
      } catch (err) {
        const file = await saveScreenshot(page, `projector-paging-${width}x${height}`);
        throw new Error(`${(err as Error).message}\nScreenshot: ${file}`, { cause: err });
      }
    }, 150_000);
  }

  // Last: it changes the data the tests above page through.
  it('keeps the page it is on through live changes (an attempt, a block) and shows them', async () => {
    try {
      await page.setViewportSize({ width: 1920, height: 1080 });
      await projector.open(undefined, SEGUNDOS);
      await projector.column('basico').waitFor();
      await recordSnapshots(page);
      await projector
        .pageLabel('basico')
        .filter({ hasText: /^Página 2 de/ })
        .waitFor({ timeout: 60_000 });
      // While 'Básico' shows page 2: an attempt sends a team from the last page to the first, and a
      // block puts a mark under a name (a taller row). Both re-page the level; neither may send the
      // hall back to page 1 before its turn.
      const climber = ids.get('Equipo basico 30')!;
      const blocked = ids.get('Equipo basico 09')!;
      const key = await generateAgentKey(bed.server.app, adminToken, climber);
      expect((await sendAttempt(bed.server.url, key)).status).toBe(200);
      const toggle = await bed.server.app.inject({
        method: 'GET',
        url: `/api/descalificarTeam/${blocked}`,
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(toggle.statusCode).toBe(200);
      // Each shows when its page comes round: the climber first of all, the block with its mark.
      await projector.attempts(climber).filter({ hasText: /^1$/ }).waitFor({ timeout: 60_000 });
      expect((await projector.order('basico'))[0]).toBe(climber);
      await projector.row(blocked).getByText('DESCALIFICADO').waitFor({ timeout: 60_000 });

      const snapshots = await readSnapshots(page);
      expect(snapshots.basico.flatMap((s) => s.problems)).toEqual([]);
      const labels = snapshots.basico.map((s) => s.label).filter((label) => label !== null);
      expect(labels.length).toBeGreaterThan(2);
      for (let i = 1; i < labels.length; i++)
        expect(isNextPage(labels[i - 1]!, labels[i]!), `${labels[i - 1]} → ${labels[i]}`).toBe(true);
    } catch (err) {
      const file = await saveScreenshot(page, 'projector-paging-live');
      throw new Error(`${(err as Error).message}\nScreenshot: ${file}`, { cause: err });
    }
  }, 150_000);
});

/**
 * One whole paging cycle of a level in its snapshots: from a 'Página 1 de N' through pages 2..N back to
 * page 1, with the names seen in the order they appeared; for a level that fits, its one page.
 */
function cycleOf(list: Snapshot[]): 'incomplete' | { pages: number; labels: string[]; seen: string[] } {
  const first = list.find((s) => s.names.length > 0);
  if (!first) return 'incomplete';
  if (first.label === null) return { pages: 1, labels: [], seen: first.names };
  const pages = Number(/ de (\d+)$/.exec(first.label)?.[1]);
  const start = list.findIndex((s) => s.label === `Página 1 de ${pages}`);
  if (start < 0) return 'incomplete';
  const seen = new Set<string>();
  const labels: string[] = [];
  for (const snapshot of list.slice(start)) {
    // Back on page 1 after the others: one cycle done.
    if (labels.length === pages && snapshot.label === `Página 1 de ${pages}`)
      return { pages, labels, seen: [...seen] };
    if (snapshot.label !== labels.at(-1)) labels.push(snapshot.label ?? '');
    for (const name of snapshot.names) seen.add(name);
  }
  return 'incomplete';
}

/**
 * Whether the page line may go from `before` to `after`: the same page (its count may change), the
 * next one, back to 1 after the last, or the last when there are fewer pages than the one shown
 * (clamped). Anything else, such as back to 1 mid-cycle, is a reset that confuses the hall.
 */
function isNextPage(before: string, after: string): boolean {
  const [i, n] = /^Página (\d+) de (\d+)$/.exec(before)!.slice(1).map(Number) as [number, number];
  const [j, m] = /^Página (\d+) de (\d+)$/.exec(after)!.slice(1).map(Number) as [number, number];
  return j === i || (j === i + 1 && i < n) || (j === 1 && i === n) || (i > m && j === m);
}

/** The snapshots `recordSnapshots` took so far. */
async function readSnapshots(page: Page): Promise<Record<Level, Snapshot[]>> {
  return page.evaluate(
    () => (window as unknown as { projectorSnapshots: Record<Level, Snapshot[]> }).projectorSnapshots,
  );
}

/**
 * Records, in the page, every state of each level's list: after each DOM change of the columns (a
 * page turned, a row changed), once painted, it notes the level's page line, the names on screen, and any problem:
 * a name wider or taller than its box or cut by an ellipsis, a mark beside the name instead of under
 * it, a row reaching past its list or its column.
 */
async function recordSnapshots(page: Page): Promise<void> {
  await page.evaluate((levels) => {
    const w = window as unknown as { projectorSnapshots: Record<string, unknown[]> };
    w.projectorSnapshots = Object.fromEntries(levels.map((level) => [level, []]));
    const take = () => {
      for (const level of levels) {
        const column = document.querySelector(`[data-testid="projector-${level}"]`);
        const list = document.querySelector(`[data-testid="projector-list-${level}"]`);
        if (!column || !list) continue;
        const columnBox = column.getBoundingClientRect();
        const listBox = list.getBoundingClientRect();
        const problems: string[] = [];
        const names: string[] = [];
        for (const row of Array.from(list.querySelectorAll<HTMLElement>('[data-testid^="projector-row-"]'))) {
          const nameEl = row.querySelector<HTMLElement>('.projector-row-name')!;
          const name = nameEl.textContent ?? '';
          names.push(name);
          const style = getComputedStyle(nameEl);
          if (nameEl.scrollWidth > nameEl.clientWidth || nameEl.scrollHeight > nameEl.clientHeight)
            problems.push(`${name}: name larger than its box`);
          if (style.textOverflow === 'ellipsis' && style.overflow !== 'visible')
            problems.push(`${name}: name clipped with an ellipsis`);
          if (row.scrollWidth > row.clientWidth) problems.push(`${name}: row wider than its box`);
          const rowBox = row.getBoundingClientRect();
          const nameBox = nameEl.getBoundingClientRect();
          if (rowBox.bottom > listBox.bottom + 0.5 || rowBox.bottom > columnBox.bottom + 0.5)
            problems.push(`${name}: row cut at the bottom (${rowBox.bottom} > ${listBox.bottom})`);
          if (rowBox.top < listBox.top - 0.5) problems.push(`${name}: row above its list`);
          for (const badge of Array.from(row.querySelectorAll('.projector-row-badge')))
            if (badge.getBoundingClientRect().top < nameBox.bottom - 0.5)
              problems.push(`${name}: mark beside the name, not under it`);
        }
        const label = document.querySelector(`[data-testid="projector-page-${level}"]`)?.textContent ?? null;
        const snapshots = w.projectorSnapshots[level]!;
        const last = snapshots.at(-1) as { label: string | null; names: string[] } | undefined;
        const same = last && last.label === label && last.names.join('\n') === names.join('\n');
        if (!same || problems.length) snapshots.push({ label, names, problems });
      }
    };
    take();
    // After each change of the columns (the clock's ticks are outside them), once the frame that
    // shows it is painted: what the hall saw.
    let pending = false;
    const afterPaint = () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() =>
        setTimeout(() => {
          pending = false;
          take();
        }, 0),
      );
    };
    const grid = document.querySelector('[data-testid="projector-basico"]')!.parentElement!;
    new MutationObserver(afterPaint).observe(grid, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  }, LEVEL_KEYS);
}

/** Saves a screenshot under test-results/ (git-ignored) and returns its path. */
async function saveScreenshot(page: Page, name: string): Promise<string> {
  const dir = fileURLToPath(new URL('../test-results/', import.meta.url));
  await mkdir(dir, { recursive: true });
  const file = `${dir}${name}-${Date.now()}.png`;
  await page.screenshot({ path: file }).catch(() => undefined);
  return file;
}
