import { createTable, type TableOptionsResolved } from '@tanstack/react-table';
import { describe, expect, it } from 'vitest';
import {
  serverPageCount,
  serverPageSummary,
  serverTableOptions,
  type ServerTableState,
} from './server-table-model';
import { buildInfoText } from './table-texts';
import type { DataColumn } from './table-model';

interface Row {
  id: number;
  name: string;
  machines: number;
}
const COLUMNS: DataColumn<Row>[] = [
  { id: 'name', accessorKey: 'name', header: 'PROGRAMA' },
  { id: 'machines', accessorKey: 'machines', header: 'MÁQUINAS' },
];
const PAGE: Row[] = [
  { id: 1, name: 'b.exe', machines: 1 },
  { id: 2, name: 'a.exe', machines: 9 },
];

/** A table on the options, whose every state change goes through `onChange` into `state` (as React would). */
function serverTable(initial: ServerTableState, total: number) {
  let state = initial;
  const options = () =>
    serverTableOptions({
      rows: PAGE,
      columns: COLUMNS,
      total,
      state,
      onChange: (update) => {
        state = update(state);
        table.setOptions((previous) => ({ ...previous, ...options() }));
      },
    });
  const table = createTable({
    ...options(),
    onStateChange: () => undefined,
    renderFallbackValue: null,
  } as TableOptionsResolved<Row>);
  return { table, state: () => state };
}

const START: ServerTableState = {
  pageIndex: 3,
  pageSize: 25,
  sorting: [{ id: 'machines', desc: true }],
  search: 'x',
};

describe('server-paged table', () => {
  it('shows the page as the server ordered it, whatever the sorting state says', () => {
    const { table } = serverTable(START, 1_000);
    expect(table.getRowModel().rows.map((row) => row.original.name)).toEqual(['b.exe', 'a.exe']);
    expect(table.getPageCount()).toBe(40);
  });

  it('turns a header click into the next query: that column, first page', () => {
    const { table, state } = serverTable(START, 1_000);
    table.getColumn('name')!.toggleSorting(false);
    expect(state()).toEqual({ ...START, sorting: [{ id: 'name', desc: false }], pageIndex: 0 });
    table.setPageIndex(7);
    expect(state().pageIndex).toBe(7);
    expect(state().search).toBe('x');
  });

  it("says 'Mostrando del 76 al 77 de 1000 registros' for the fourth page of 25 with two rows", () => {
    expect(buildInfoText(serverPageSummary(START, PAGE.length, 1_000))).toBe(
      'Mostrando del 76 al 77 de 1000 registros',
    );
    expect(buildInfoText(serverPageSummary(START, 0, 0))).toBe('Mostrando del 0 al 0 de 0 registros');
    expect(serverPageCount(0, 25)).toBe(1);
    expect(serverPageCount(251, 25)).toBe(11);
  });
});
