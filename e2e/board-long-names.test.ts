import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LEVELS, USER_TYPES } from '@concurso/shared';
import { createTeam, createUser, startContest } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { openSignedIn } from './pages/login-page.js';
import { BoardPage } from './pages/board-page.js';

/** 90 characters, no hyphen: the longest name an organiser is likely to type (item 2). */
const LONG_NAME =
  'Los Invencibles Programadores de la Facultad de Ingeniería Campus Norte Turno Vespertino A';
/** One word longer than a phone's name column: it must break inside the word, not widen the table. */
const LONG_WORD = 'Supercalifragilisticoespialidosos_del_Laboratorio_de_Computo';
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

/** Where a row's parts are against its table's box, in CSS pixels. */
interface RowFit {
  team: string;
  /** How far the table's content is wider than its box (0: no sideways scroll). */
  tableOverflow: number;
  /** Whether INTENTOS, Bloquear/Desbloquear and Historial are all inside the table's box. */
  inside: boolean;
  /** The text of an element of the row cut short ('…' or clipped: a badge, a button), or null. */
  truncated: string | null;
  /** Lines the name takes. */
  nameLines: number;
}

/** Measures every row of one level's table as the judge sees it (no scrolling). */
function rowFits(page: Page, level: string): Promise<RowFit[]> {
  return page.evaluate((level) => {
    const table = document.querySelector<HTMLElement>(`[data-testid="board-${level}"]`)!;
    const box = table.parentElement!.getBoundingClientRect();
    const tableOverflow = Math.max(0, table.parentElement!.scrollWidth - table.parentElement!.clientWidth);
    return Array.from(table.querySelectorAll<HTMLElement>('tr[data-testid^="team-row-"]')).map((row) => {
      const id = row.dataset.testid!.slice('team-row-'.length);
      const parts = [
        row.querySelector<HTMLElement>(`[data-testid="attempts-${id}"]`)!,
        ...Array.from(row.querySelectorAll<HTMLElement>('button')),
      ];
      const inside = parts.every((el) => {
        const rect = el.getBoundingClientRect();
        return rect.width > 0 && rect.left >= box.left - 0.5 && rect.right <= box.right + 0.5;
      });
      const cut = Array.from(row.querySelectorAll<HTMLElement>('*')).find(
        (el) => el.children.length === 0 && el.scrollWidth > el.clientWidth + 1,
      );
      const truncated = cut ? `${cut.textContent} (${cut.clientWidth} de ${cut.scrollWidth} px)` : null;
      const name = row.querySelector<HTMLElement>('[data-testid="team-name"]')!;
      const lineHeight = parseFloat(getComputedStyle(name).lineHeight);
      return {
        team: name.textContent ?? '',
        tableOverflow,
        inside,
        truncated,
        nameLines: Math.round(name.getBoundingClientRect().height / lineHeight),
      };
    });
  }, level);
}

/**
 * A long team name on the live board (item 2): at a phone's, a laptop's and a desktop's
 * size the name wraps, and every row of its level keeps INTENTOS, 'Bloquear'/'Desbloquear' and
 * 'Historial' inside the level's column, whole, with no sideways scroll; a blocked row's badges are
 * not cut short either.
 */
describe('a long team name on the live board', () => {
  const bed = useWebTestBed();

  beforeAll(async () => {
    await createUser(bed.server.orm, USER_TYPES.judge, 'juez_nombres', 'clave-nombres');
    const { adminToken, contestId } = await startContest(bed.server, 'admin_nombres');
    await createTeam(bed.server.orm, contestId, LEVELS.basico, LONG_NAME);
    await createTeam(bed.server.orm, contestId, LEVELS.basico, 'Compiladores Anónimos UNAM');
    await createTeam(bed.server.orm, contestId, LEVELS.basico, 'Hola Mundo');
    await createTeam(bed.server.orm, contestId, LEVELS.intermedio, LONG_WORD);
    const blocked = await createTeam(
      bed.server.orm,
      contestId,
      LEVELS.intermedio,
      'Recursión Infinita del Norte',
    );
    const block = await bed.server.app.inject({
      method: 'GET',
      url: `/api/descalificarTeam/${blocked.id}`,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(block.statusCode).toBe(200);
  });

  for (const viewport of VIEWPORTS) {
    it(`keeps counts and actions in view at ${viewport.width}x${viewport.height}`, async () => {
      const { page, context } = await openSignedIn(
        bed.browser,
        bed.server.url,
        'juez_nombres',
        'clave-nombres',
        '/homeJuez',
        { viewport },
      );
      try {
        const board = new BoardPage(page);
        await board.table('basico').getByText(LONG_NAME).waitFor();
        await board.table('intermedio').getByText('DESCALIFICADO').waitFor();

        for (const level of ['basico', 'intermedio'] as const) {
          const fits = await rowFits(page, level);
          expect(fits.length).toBeGreaterThan(0);
          for (const fit of fits) {
            expect(fit, `${level} at ${viewport.width}px`).toMatchObject({
              tableOverflow: 0,
              inside: true,
              truncated: null,
            });
          }
        }
        // The long name wraps instead of widening its column.
        const basico = await rowFits(page, 'basico');
        expect(basico.find((fit) => fit.team === LONG_NAME)!.nameLines).toBeGreaterThan(1);
      } finally {
        await context.close();
      }
    });
  }
});
