import { describe, expect, it } from 'vitest';
import type { BoardTeam } from '@concurso/shared';
import { PROJECTOR_PAGING } from '@concurso/shared';
import {
  clampProjectorPage,
  nextProjectorPage,
  projectorColumns,
  projectorFollowedLevels,
  projectorLevels,
  projectorPageItems,
  projectorPageLabel,
  projectorPageStarts,
  projectorPagingSeconds,
  projectorRowHasMarks,
  projectorRowHeight,
  projectorRowHeights,
  projectorTitle,
} from './projector-model';

const team = (
  id: number,
  name: string,
  levels_id: number,
  number_attempts: number,
  status = 1,
): BoardTeam => ({
  id,
  name,
  levels_id,
  number_attempts,
  status_team: { id: status, status: status === 1 ? 'Activo' : 'Descalificado' },
  agent_online: true,
  agent_alert: null,
  version: 1,
});

describe('projector model', () => {
  it('titles the active contest, and says when none is active', () => {
    expect(projectorTitle({ calendar: '2027A' })).toBe('Concurso 2027A');
    expect(projectorTitle(null)).toBe('Sin concurso activo');
  });

  it('shows one level for ?nivel=<board level id>, all three otherwise', () => {
    expect(projectorLevels('2')).toEqual(['intermedio']);
    expect(projectorLevels(null)).toEqual(['basico', 'intermedio', 'avanzado']);
    expect(projectorLevels('7')).toEqual(['basico', 'intermedio', 'avanzado']);
    expect(projectorLevels('abc')).toEqual(['basico', 'intermedio', 'avanzado']);
  });

  it('follows only the shown level on the socket for ?nivel=, every level otherwise', () => {
    expect(projectorFollowedLevels(projectorLevels('2'))).toEqual([2]);
    expect(projectorFollowedLevels(projectorLevels(null))).toBeUndefined();
  });

  it('sorts each level by attempts, most first, ties by name, and scales bars to the largest', () => {
    const teams = {
      1: team(1, 'Zeta', 1, 2),
      2: team(2, 'Árbol', 1, 2),
      3: team(3, 'Bit', 1, 9, 2),
      4: team(4, 'Solo', 3, 0),
    };
    const [basico, intermedio, avanzado] = projectorColumns(teams, ['basico', 'intermedio', 'avanzado']);
    expect(basico!.teams.map((t) => t.name)).toEqual(['Bit', 'Árbol', 'Zeta']);
    expect(basico!.maxAttempts).toBe(9);
    expect(basico!.title).toBe('Nivel Básico');
    expect(intermedio!.teams).toEqual([]);
    expect(intermedio!.maxAttempts).toBe(1);
    expect(avanzado!.teams.map((t) => t.id)).toEqual([4]);
  });

  it('only builds the requested levels', () => {
    const columns = projectorColumns({ 1: team(1, 'A', 1, 1), 2: team(2, 'B', 2, 1) }, ['intermedio']);
    expect(columns.map((c) => c.teams.map((t) => t.name))).toEqual([['B']]);
  });

  it('reads ?segundos= as a whole number of seconds from 3 to 120, 10 otherwise', () => {
    expect(PROJECTOR_PAGING.defaultSeconds).toBe(10);
    expect(projectorPagingSeconds(null)).toBe(10);
    expect(projectorPagingSeconds('3')).toBe(3);
    expect(projectorPagingSeconds(' 45 ')).toBe(45);
    expect(projectorPagingSeconds('120')).toBe(120);
    for (const bad of ['', '2', '0', '121', '-5', '4.5', '1e1', 'diez', '10s', '0x10'])
      expect(projectorPagingSeconds(bad), bad).toBe(10);
  });

  it('pages whole rows in order, never more than the height holds', () => {
    // 100 px of room: 40+40 fit, a third 40 would not.
    expect(projectorPageStarts([40, 40, 40, 40, 40], 100)).toEqual([0, 2, 4]);
    // Uneven rows (a wrapped name, a mark under it): exactly full is still whole.
    expect(projectorPageStarts([30, 70, 50, 50, 20], 100)).toEqual([0, 2, 4]);
    // Everything fits, and an empty list: one page.
    expect(projectorPageStarts([10, 20, 30], 100)).toEqual([0]);
    expect(projectorPageStarts([], 100)).toEqual([0]);
    // A row taller than the box still gets a page, so paging moves on.
    expect(projectorPageStarts([150, 40, 150], 100)).toEqual([0, 1, 2]);
    // Every row is on exactly one page and each page adds up to at most the room.
    const heights = Array.from({ length: 31 }, (_, i) => 44 + ((i * 37) % 3) * 28);
    const starts = projectorPageStarts(heights, 420);
    const pages = starts.map((start, page) => heights.slice(start, starts[page + 1] ?? heights.length));
    expect(pages.flat()).toEqual(heights);
    for (const page of pages) expect(page.reduce((sum, h) => sum + h, 0)).toBeLessThanOrEqual(420);
  });

  it('balances the pages instead of leaving a near-empty last one', () => {
    const rows = (count: number, height = 50) => Array.from({ length: count }, () => height);
    // 9 rows of 50 px fit 450 px: 10 rows make 5 + 5, not 9 + 1; 11 make 6 + 5.
    expect(projectorPageStarts(rows(10), 450)).toEqual([0, 5]);
    expect(projectorPageStarts(rows(11), 450)).toEqual([0, 6]);
    // 19 rows need 3 pages either way: 7 + 7 + 5, not 9 + 9 + 1.
    expect(projectorPageStarts(rows(19), 450)).toEqual([0, 7, 14]);
    // 40 rows where 17 fit: 14 + 14 + 12 (three pages, as greedy), not 17 + 17 + 6.
    expect(projectorPageStarts(rows(40, 52), 17 * 52 + 10)).toEqual([0, 14, 28]);
    // Uneven rows: greedy cuts 120 + 180 + 90 px; the same 3 pages, evened out, are 120 + 150 + 120.
    const heights = [60, 30, 30, 90, 30, 30, 30, 60, 30];
    expect(projectorPageStarts(heights, 200)).toEqual([0, 3, 6]);
  });

  it("picks a page's rows, keeps the page on a live change and clamps it when pages go", () => {
    const names = ['a', 'b', 'c', 'd', 'e'];
    expect(projectorPageItems(names, [0, 2, 4], 0)).toEqual(['a', 'b']);
    expect(projectorPageItems(names, [0, 2, 4], 2)).toEqual(['e']);
    expect(projectorPageItems(names, [0, 3], 2)).toEqual(['d', 'e']);
    expect(clampProjectorPage(1, 3)).toBe(1);
    expect(clampProjectorPage(2, 2)).toBe(1);
    expect(clampProjectorPage(0, 1)).toBe(0);
    expect(nextProjectorPage(0, 3)).toBe(1);
    expect(nextProjectorPage(2, 3)).toBe(0);
    expect(nextProjectorPage(4, 3)).toBe(0);
    expect(nextProjectorPage(0, 1)).toBe(0);
    expect(projectorPageLabel(0, 3)).toBe('Página 1 de 3');
    expect(projectorPageLabel(5, 3)).toBe('Página 3 de 3');
  });

  it("sizes a row from its name's measured height and its marks, never under the count", () => {
    // Sample: 8+8 padding and 1 border; middle 60 = name 24 + bar 36; count 50; marks add 20.
    const metrics = { row: 77, main: 60, name: 24, count: 50, marks: 20 };
    expect(projectorRowHeight(24, false, metrics)).toBe(77);
    expect(projectorRowHeight(48, false, metrics)).toBe(101);
    expect(projectorRowHeight(24, true, metrics)).toBe(97);
    expect(projectorRowHeight(48, true, metrics)).toBe(121);
    // A short middle part: the count sets the height.
    const tallCount = { row: 97, main: 60, name: 24, count: 80, marks: 10 };
    expect(projectorRowHeight(24, true, tallCount)).toBe(97);
    expect(projectorRowHeight(48, true, tallCount)).toBe(111);
  });

  it('pages with measured names, one not measured yet counting as the tallest', () => {
    const metrics = { row: 77, main: 60, name: 24, count: 50, marks: 20 };
    const names = new Map([
      [1, 24],
      [2, 48],
    ]);
    const teams = [team(2, 'Dos', 1, 0), team(1, 'Uno', 1, 0, 2), team(3, 'Tres', 1, 0)];
    expect(projectorRowHeights(teams, names, metrics)).toEqual([101, 97, 101]);
    expect(projectorRowHeights(teams, new Map(), metrics)).toBeNull();
    expect(projectorRowHeights(teams, names, null)).toBeNull();
    expect(projectorRowHeights([], new Map(), null)).toEqual([]);
    expect(projectorRowHasMarks({ ...team(4, 'Sin agente', 1, 0), agent_online: false })).toBe(true);
  });
});
