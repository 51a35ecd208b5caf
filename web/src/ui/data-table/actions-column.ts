import type { ReactNode } from 'react';
import type { DataColumn } from './table-model';

/**
 * The ACCIONES column: the screen's row buttons (wrap them in `RowActions`). It has no value, so it is
 * never searched, sorted or exported.
 */
export function actionsColumn<T>(render: (row: T) => ReactNode): DataColumn<T> {
  return {
    id: 'acciones',
    header: 'ACCIONES',
    enableSorting: false,
    enableGlobalFilter: false,
    cell: ({ row }) => render(row.original),
  };
}
