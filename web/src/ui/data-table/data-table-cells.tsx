import { Table } from '@chakra-ui/react';
import { flexRender, type Row } from '@tanstack/react-table';

/** The cells of one row, each rendered by its column's `cell` (the value itself by default). */
export function DataTableCells<T>({ row }: { row: Row<T> }) {
  return (
    <>
      {row.getVisibleCells().map((cell) => (
        <Table.Cell key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</Table.Cell>
      ))}
    </>
  );
}
