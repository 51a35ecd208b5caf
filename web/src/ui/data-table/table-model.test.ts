import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE } from '@concurso/shared';
import { createHeadlessTable } from './headless-table';
import { CAREER_COLUMNS, CAREER_ROWS, type CareerLikeRow } from './table-fixtures';
import {
  ALL_ROWS,
  PAGE_SIZE_OPTIONS,
  VIRTUALIZE_ABOVE,
  clampPageIndex,
  dataTableOptions,
  pageButtons,
  shouldVirtualize,
  summarizePage,
  toPageSizeOption,
  toTablePageSize,
} from './table-model';
import { buildInfoText } from './table-texts';

function careersTable(rows: CareerLikeRow[] = CAREER_ROWS) {
  return createHeadlessTable(dataTableOptions(rows, CAREER_COLUMNS));
}

const pageIds = (table: ReturnType<typeof careersTable>) =>
  table.getRowModel().rows.map((row) => row.original.id);
const info = (table: ReturnType<typeof careersTable>) => buildInfoText(summarizePage(table));

describe('data table model (TanStack, headless)', () => {
  it('shows 5 rows per page, the first column sorted descending', () => {
    const table = careersTable();
    expect(DEFAULT_PAGE_SIZE).toBe(5);
    expect(table.getState().pagination.pageSize).toBe(5);
    expect(table.getState().sorting).toEqual([{ id: 'id', desc: true }]);
    expect(pageIds(table)).toEqual([12, 11, 10, 9, 8]);
    expect(table.getPageCount()).toBe(3);
    expect(info(table)).toBe('Mostrando del 1 al 5 de 12 registros');
  });

  it('pages forward to a short last page', () => {
    const table = careersTable();
    table.nextPage();
    expect(pageIds(table)).toEqual([7, 6, 5, 4, 3]);
    expect(info(table)).toBe('Mostrando del 6 al 10 de 12 registros');
    table.setPageIndex(2);
    expect(pageIds(table)).toEqual([2, 1]);
    expect(info(table)).toBe('Mostrando del 11 al 12 de 12 registros');
    expect(table.getCanNextPage()).toBe(false);
    expect(table.getCanPreviousPage()).toBe(true);
  });

  it('offers 5, 10, 25, 50 and Todos, and Todos shows every row on one page', () => {
    expect(PAGE_SIZE_OPTIONS).toEqual([5, 10, 25, 50, ALL_ROWS]);
    const table = careersTable();
    table.setPageSize(toTablePageSize(10));
    expect(pageIds(table)).toHaveLength(10);
    expect(info(table)).toBe('Mostrando del 1 al 10 de 12 registros');

    table.setPageSize(toTablePageSize(ALL_ROWS));
    expect(toPageSizeOption(table.getState().pagination.pageSize)).toBe(ALL_ROWS);
    expect(pageIds(table)).toHaveLength(12);
    expect(table.getPageCount()).toBe(1);
    expect(info(table)).toBe('Mostrando del 1 al 12 de 12 registros');
  });

  it('keeps thousands of rows on one page with Todos and asks for virtualisation', () => {
    const many = Array.from({ length: 3000 }, (_, i) => ({
      id: i + 1,
      name: `Carrera ${i + 1}`,
      departament: { name: 'Depto' },
    }));
    const table = careersTable(many);
    table.setPageSize(toTablePageSize(ALL_ROWS));
    const rows = table.getRowModel().rows;
    expect(rows).toHaveLength(3000);
    expect(rows[0]?.original.id).toBe(3000);
    expect(shouldVirtualize(rows.length)).toBe(true);
    expect(shouldVirtualize(50)).toBe(false);
    expect(shouldVirtualize(VIRTUALIZE_ABOVE + 1)).toBe(true);
    expect(info(table)).toBe('Mostrando del 1 al 3000 de 3000 registros');
  });

  it('searches every data column ignoring accents and case, with the filtered text', () => {
    const table = careersTable();
    table.setGlobalFilter('ingenieria');
    // 'Ingeniería en Computación' (1), 'Ingeniería Civil' (4), 'Ingenieria Industrial' (9).
    expect(pageIds(table)).toEqual([9, 4, 1]);
    expect(info(table)).toBe('Mostrando del 1 al 3 de 3 registros (filtrado de 12 registros en total)');

    table.setGlobalFilter('BASICAS');
    expect(table.getFilteredRowModel().rows).toHaveLength(6);

    table.setGlobalFilter('12');
    expect(pageIds(table)).toEqual([12]);

    table.setGlobalFilter('nada parecido');
    expect(pageIds(table)).toEqual([]);
    expect(info(table)).toBe('Mostrando del 0 al 0 de 0 registros (filtrado de 12 registros en total)');

    table.setGlobalFilter('');
    expect(info(table)).toBe('Mostrando del 1 al 5 de 12 registros');
  });

  it('never searches the ACCIONES column', () => {
    const table = careersTable();
    const acciones = table.getColumn('acciones');
    expect(acciones?.getCanGlobalFilter()).toBe(false);
    expect(acciones?.getCanSort()).toBe(false);
    expect(table.getColumn('name')?.getCanGlobalFilter()).toBe(true);
  });

  it('sorts by any column on click: ascending first, Spanish order, then descending', () => {
    const table = careersTable();
    const name = table.getColumn('name');
    name?.toggleSorting(undefined, false);
    expect(table.getState().sorting).toEqual([{ id: 'name', desc: false }]);
    table.setPageSize(toTablePageSize(ALL_ROWS));
    const names = table.getRowModel().rows.map((row) => row.original.name);
    // 'Álgebra' sorts with the A's, not after 'Z'.
    expect(names.slice(0, 2)).toEqual(['Álgebra Aplicada', 'Arquitectura']);
    expect(names.at(-1)).toBe('Zootecnia');

    name?.toggleSorting(undefined, false);
    expect(table.getState().sorting).toEqual([{ id: 'name', desc: true }]);
    expect(table.getRowModel().rows[0]?.original.name).toBe('Zootecnia');
  });

  it('sorts numbers by value, not as text', () => {
    const table = careersTable();
    table.getColumn('id')?.toggleSorting(false);
    table.setPageSize(toTablePageSize(ALL_ROWS));
    expect(pageIds(table)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('says "Mostrando del 0 al 0 de 0 registros" with no rows', () => {
    const table = careersTable([]);
    expect(pageIds(table)).toEqual([]);
    expect(table.getPageCount()).toBe(0);
    expect(info(table)).toBe('Mostrando del 0 al 0 de 0 registros');
  });

  it('uses the row id as TanStack row id (data-testid="row-{id}")', () => {
    const table = careersTable();
    expect(table.getRowModel().rows[0]?.id).toBe('12');
  });
});

describe('page buttons and clamping', () => {
  it('lists every page up to 7, otherwise first, last and neighbours with gaps', () => {
    expect(pageButtons(0, 0)).toEqual([]);
    expect(pageButtons(0, 3)).toEqual([0, 1, 2]);
    expect(pageButtons(0, 7)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(pageButtons(1, 20)).toEqual([0, 1, 2, 3, 4, 'gap', 19]);
    expect(pageButtons(10, 20)).toEqual([0, 'gap', 9, 10, 11, 'gap', 19]);
    expect(pageButtons(18, 20)).toEqual([0, 'gap', 15, 16, 17, 18, 19]);
  });

  it('stays on the last existing page when rows go away', () => {
    expect(clampPageIndex(3, 2)).toBe(1);
    expect(clampPageIndex(1, 4)).toBe(1);
    expect(clampPageIndex(2, 0)).toBe(0);
  });
});
