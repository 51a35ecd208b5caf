import { useCallback, useEffect, useRef, useState } from 'react';
import { Stack } from '@chakra-ui/react';
import { useReactTable } from '@tanstack/react-table';
import { DataTableGrid } from './data-table-grid';
import { DataTablePagination } from './data-table-pagination';
import { DataTableToolbar } from './data-table-toolbar';
import { extractExportData } from './export-data';
import {
  serverPageCount,
  serverPageSummary,
  serverTableOptions,
  type ServerTableState,
} from './server-table-model';
import { shouldVirtualize, type DataColumn, type RowWithId } from './table-model';
import { buildInfoText } from './table-texts';

/** How long the search waits after the last key before asking the server (ms). */
const SERVER_SEARCH_DEBOUNCE_MS = 300;

/** Props of {@link ServerDataTable}. */
export interface ServerDataTableProps<T extends RowWithId> {
  /** The page the server answered, in its order. Keep the array stable between renders. */
  rows: T[];
  /** Rows matching the search on every page (the server's `total`). */
  total: number;
  /** Memoised columns; the sortable ones' ids are what the server sorts by. */
  columns: DataColumn<T>[];
  /** What is asked of the server; held by the feature, which turns it into its query. */
  state: ServerTableState;
  onStateChange: (update: (previous: ServerTableState) => ServerTableState) => void;
  /** The page sizes the server offers. */
  pageSizes: readonly number[];
  title: string;
  exportName: string;
  loading?: boolean;
}

/**
 * The list table for rows that live on the server (docs/design.md section 6a: "screens that page
 * on the server"): the same look and Spanish texts as {@link DataTable}, on TanStack Table in manual
 * mode (`serverTableOptions`). 'Buscar:' asks the server after `SERVER_SEARCH_DEBOUNCE_MS`; a header
 * click or a page button changes the state the feature queries with. The exports work on the page
 * shown (the whole list may be far larger than a browser should hold).
 */
export function ServerDataTable<T extends RowWithId>({
  rows,
  total,
  columns,
  state,
  onStateChange,
  pageSizes,
  title,
  exportName,
  loading = false,
}: ServerDataTableProps<T>) {
  const table = useReactTable(serverTableOptions({ rows, columns, total, state, onChange: onStateChange }));

  // The input answers every key; the server is asked once typing pauses.
  const [search, setSearch] = useState(state.search);
  const latest = useRef(state.search);
  useEffect(() => {
    if (search === latest.current) return;
    const timer = setTimeout(() => {
      latest.current = search;
      onStateChange((previous) => ({ ...previous, search, pageIndex: 0 }));
    }, SERVER_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search, onStateChange]);

  const pageCount = serverPageCount(total, state.pageSize);
  useEffect(() => {
    // Rows went away (fewer matches after a refetch): stay on the last page that still exists.
    if (!loading && state.pageIndex > pageCount - 1) {
      onStateChange((previous) => ({ ...previous, pageIndex: pageCount - 1 }));
    }
  }, [loading, state.pageIndex, pageCount, onStateChange]);

  const getExportData = useCallback(() => extractExportData(table), [table]);
  const pageRows = table.getRowModel().rows;

  return (
    <Stack gap="3" data-testid="data-table">
      <DataTableToolbar
        pageSize={state.pageSize}
        pageSizes={pageSizes}
        onPageSizeChange={(pageSize) =>
          onStateChange((previous) => ({ ...previous, pageSize, pageIndex: 0 }))
        }
        search={search}
        onSearchChange={setSearch}
        getExportData={getExportData}
        exportName={exportName}
        exportTitle={title}
      />
      <DataTableGrid
        table={table}
        rows={pageRows}
        virtual={shouldVirtualize(pageRows.length)}
        loading={loading && rows.length === 0}
        label={title}
      />
      <DataTablePagination
        info={buildInfoText(serverPageSummary(state, rows.length, total))}
        pageIndex={state.pageIndex}
        pageCount={pageCount}
        canPrevious={state.pageIndex > 0}
        canNext={state.pageIndex < pageCount - 1}
        onPage={(pageIndex) => onStateChange((previous) => ({ ...previous, pageIndex }))}
      />
    </Stack>
  );
}
