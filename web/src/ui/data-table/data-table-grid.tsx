import { Spinner, Table } from '@chakra-ui/react';
import type { Row, Table as TanTable } from '@tanstack/react-table';
import { TableVirtuoso, type TableComponents } from 'react-virtuoso';
import { DataTableCells } from './data-table-cells';
import { DataTableHeaderRow } from './data-table-header';
import type { RowWithId } from './table-model';
import { TABLE_TEXTS } from './table-texts';

/** Props of {@link DataTableGrid}. */
export interface DataTableGridProps<T extends RowWithId> {
  table: TanTable<T>;
  /** The rows of the current page. */
  rows: Row<T>[];
  /** Virtualise the body (long pages, e.g. 'Todos' with thousands of rows). */
  virtual: boolean;
  /** The first load has not answered yet. */
  loading: boolean;
  label: string;
}

// Chakra's table parts for react-virtuoso, declared once so their identity never changes between renders.
// React 19 passes `ref` as an ordinary prop, so spreading the props forwards it.
const virtuosoComponents: TableComponents<Row<RowWithId>> = {
  Table: (props) => <Table.Root size="sm" data-virtual="true" {...props} />,
  TableHead: (props) => <Table.Header bg="bg" {...props} />,
  TableBody: (props) => <Table.Body {...props} />,
  TableRow: ({ item, ...props }) => <Table.Row data-testid={`row-${item.original.id}`} {...props} />,
};

/**
 * The table itself: header and the page's rows. Short pages render plainly; long ones through
 * react-virtuoso's TableVirtuoso, which keeps only the rows in view in the DOM.
 */
export function DataTableGrid<T extends RowWithId>({
  table,
  rows,
  virtual,
  loading,
  label,
}: DataTableGridProps<T>) {
  const columnCount = table.getVisibleLeafColumns().length;

  if (virtual && rows.length > 0) {
    return (
      <TableVirtuoso<Row<RowWithId>>
        aria-label={label}
        style={{ height: '70vh', borderWidth: '1px', borderRadius: '0.375rem' }}
        data={rows as unknown as Row<RowWithId>[]}
        components={virtuosoComponents}
        computeItemKey={(_, row) => row.id}
        fixedHeaderContent={() => <DataTableHeaderRow table={table} />}
        itemContent={(_, row) => <DataTableCells row={row} />}
        increaseViewportBy={400}
      />
    );
  }

  return (
    <Table.ScrollArea borderWidth="1px" rounded="md">
      <Table.Root size="sm" aria-label={label} aria-busy={loading}>
        <Table.Header>
          <DataTableHeaderRow table={table} />
        </Table.Header>
        <Table.Body>
          {rows.length === 0 ? (
            <Table.Row>
              <Table.Cell colSpan={columnCount} textAlign="center" color="fg.muted" py="4">
                {loading ? <Spinner size="sm" role="status" aria-label="Cargando…" /> : TABLE_TEXTS.empty}
              </Table.Cell>
            </Table.Row>
          ) : (
            rows.map((row) => (
              <Table.Row key={row.id} data-testid={`row-${row.original.id}`}>
                <DataTableCells row={row} />
              </Table.Row>
            ))
          )}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
