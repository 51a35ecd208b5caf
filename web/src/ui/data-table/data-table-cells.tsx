import { Table } from '@chakra-ui/react';
import { flexRender, type Row } from '@tanstack/react-table';

/**
 * The cells of one row, each rendered by its column's `cell` (the value itself by default). Below
 * 768 px a cell's text does not wrap, so rows stay one line high and the table scrolls in its box.
 */
export function DataTableCells<T>({ row }: { row: Row<T> }) {
  return (
    <>
      {row.getVisibleCells().map((cell) => (
        <Table.Cell key={cell.id} whiteSpace={{ base: 'nowrap', md: 'normal' }}>
          {flexRender(cell.column.columnDef.cell, cell.getContext())}
        </Table.Cell>
      ))}
    </>
  );
}
