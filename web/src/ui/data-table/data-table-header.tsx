import { chakra, Table } from '@chakra-ui/react';
import { flexRender, type Header, type Table as TanTable } from '@tanstack/react-table';

/** Props of {@link DataTableHeaderRow}. */
export interface DataTableHeaderRowProps<T> {
  table: TanTable<T>;
}

const SORT_ARIA = { asc: 'ascending', desc: 'descending' } as const;
const SORT_GLYPH = { asc: '▲', desc: '▼' } as const;

/** One column header: a button that sorts by the column (TanStack's toggle) when the column sorts. */
function HeaderCell<T>({ header, table }: { header: Header<T, unknown>; table: TanTable<T> }) {
  const { column } = header;
  const content = header.isPlaceholder ? null : flexRender(column.columnDef.header, header.getContext());
  if (!column.getCanSort()) {
    return <Table.ColumnHeader whiteSpace="nowrap">{content}</Table.ColumnHeader>;
  }
  const sorted = column.getIsSorted();
  const toggle = column.getToggleSortingHandler();
  return (
    <Table.ColumnHeader aria-sort={sorted ? SORT_ARIA[sorted] : 'none'} whiteSpace="nowrap" p="0">
      <chakra.button
        type="button"
        display="flex"
        alignItems="center"
        gap="1"
        w="full"
        // The cells' own padding (Chakra's small table), so headers and values line up.
        px="2"
        py="2"
        fontWeight="semibold"
        textAlign="start"
        cursor="pointer"
        _hover={{ bg: 'bg.emphasized' }}
        onClick={(event) => {
          toggle?.(event);
          // A new order starts again at the first page, like DataTables.
          table.setPageIndex(0);
        }}
      >
        {content}
        <chakra.span aria-hidden="true" fontSize="2xs" color={sorted ? 'fg' : 'fg.subtle'}>
          {sorted ? SORT_GLYPH[sorted] : '⇅'}
        </chakra.span>
      </chakra.button>
    </Table.ColumnHeader>
  );
}

/** The header row of a data table: every visible column, sortable ones as buttons. */
export function DataTableHeaderRow<T>({ table }: DataTableHeaderRowProps<T>) {
  return (
    <>
      {table.getHeaderGroups().map((group) => (
        <Table.Row key={group.id} bg="bg.muted">
          {group.headers.map((header) => (
            <HeaderCell key={header.id} header={header} table={table} />
          ))}
        </Table.Row>
      ))}
    </>
  );
}
