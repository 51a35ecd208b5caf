import { describe, expect, it } from 'vitest';
import { createHeadlessTable } from '../../ui/data-table/headless-table';
import { extractExportData } from '../../ui/data-table/export-data';
import { dataTableOptions, type DataColumn } from '../../ui/data-table/table-model';
import { contestDateColumn } from './contest-date-column';

type Row = { id: number; date: string };

const ROWS: Row[] = [
  { id: 1, date: '2026-11-21' },
  { id: 2, date: '2025-12-31' },
  { id: 3, date: '2027-01-02' },
  { id: 4, date: '2026-02-28' },
];

const ID_COLUMN: DataColumn<Row> = { accessorKey: 'id', header: 'ID' };

function contestsTable() {
  return createHeadlessTable(dataTableOptions(ROWS, [ID_COLUMN, contestDateColumn<Row>()]));
}

const shownDates = (table: ReturnType<typeof contestsTable>) =>
  table.getRowModel().rows.map((row) => row.getValue<string>('date'));

describe("the contests table's DATE column", () => {
  it('shows dd/mm/aaaa and sorts by the day, both ways', () => {
    const table = contestsTable();
    table.setSorting([{ id: 'date', desc: false }]);
    // As text, '02/01/2027' would come first and '31/12/2025' last.
    expect(shownDates(table)).toEqual(['31/12/2025', '28/02/2026', '21/11/2026', '02/01/2027']);
    table.setSorting([{ id: 'date', desc: true }]);
    expect(shownDates(table)).toEqual(['02/01/2027', '21/11/2026', '28/02/2026', '31/12/2025']);
  });

  it('finds a row by the date as shown, not by the wire form', () => {
    const table = contestsTable();
    table.setGlobalFilter('21/11/2026');
    expect(table.getRowModel().rows.map((row) => row.original.id)).toEqual([1]);
    table.setGlobalFilter('2026-11-21');
    expect(table.getRowModel().rows).toHaveLength(0);
  });

  it('exports the date as shown', () => {
    const table = contestsTable();
    table.setSorting([{ id: 'id', desc: false }]);
    expect(extractExportData(table)).toEqual({
      headers: ['ID', 'DATE'],
      rows: [
        [1, '21/11/2026'],
        [2, '31/12/2025'],
        [3, '02/01/2027'],
        [4, '28/02/2026'],
      ],
    });
  });
});
