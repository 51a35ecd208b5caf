import { useCallback, useEffect, useMemo } from 'react';
import { Stack } from '@chakra-ui/react';
import { useReactTable } from '@tanstack/react-table';
import { DataTableGrid } from './data-table-grid';
import { DataTablePagination } from './data-table-pagination';
import { DataTableToolbar } from './data-table-toolbar';
import { extractExportData } from './export-data';
import {
  clampPageIndex,
  dataTableOptions,
  shouldVirtualize,
  summarizePage,
  toPageSizeOption,
  toTablePageSize,
  type DataColumn,
  type RowWithId,
} from './table-model';
import { buildInfoText } from './table-texts';

/** Props of {@link DataTable}. */
export interface DataTableProps<T extends RowWithId> {
  /** Every row; the table searches, sorts and pages them itself. Keep the array stable between renders. */
  data: T[];
  /** Memoised columns: data columns first (the first one is the default sort), then ACCIONES. */
  columns: DataColumn<T>[];
  /** The table's accessible name and the title of its PDF and print view. */
  title: string;
  /** Base name of the exported files, e.g. 'concursos'. */
  exportName: string;
  /** True until the first load answers: the empty table shows a spinner, not 'No hay registros…'. */
  loading?: boolean;
}

/**
 * The list table of every catalogue screen (docs/spec.md section 2, "Table behaviour"), on TanStack Table:
 * 5 rows per page (5, 10, 25, 50, Todos), 'Buscar:' over every data column ignoring accents and case,
 * sorting by any header (first column descending by default), the DataTables Spanish texts, the
 * Excel / PDF / Imprimir / Copiar exports of the searched and sorted rows, and a virtualised body for
 * long pages.
 */
export function DataTable<T extends RowWithId>({
  data,
  columns,
  title,
  exportName,
  loading = false,
}: DataTableProps<T>) {
  const options = useMemo(() => dataTableOptions(data, columns), [data, columns]);
  const table = useReactTable(options);

  const { pageIndex, pageSize } = table.getState().pagination;
  const pageCount = table.getPageCount();
  useEffect(() => {
    // Rows went away (a delete, another admin's change): stay on the last page that still exists.
    const clamped = clampPageIndex(pageIndex, pageCount);
    if (clamped !== pageIndex) table.setPageIndex(clamped);
  }, [table, pageIndex, pageCount]);

  const getExportData = useCallback(() => extractExportData(table), [table]);
  const rows = table.getRowModel().rows;

  return (
    <Stack gap="3" data-testid="data-table">
      <DataTableToolbar
        pageSize={toPageSizeOption(pageSize)}
        onPageSizeChange={(option) => {
          table.setPagination({ pageIndex: 0, pageSize: toTablePageSize(option) });
        }}
        search={String(table.getState().globalFilter ?? '')}
        onSearchChange={(search) => {
          table.setGlobalFilter(search);
          table.setPageIndex(0);
        }}
        getExportData={getExportData}
        exportName={exportName}
        exportTitle={title}
      />
      <DataTableGrid
        table={table}
        rows={rows}
        virtual={shouldVirtualize(rows.length)}
        loading={loading && data.length === 0}
        label={title}
      />
      <DataTablePagination
        info={buildInfoText(summarizePage(table))}
        pageIndex={pageIndex}
        pageCount={pageCount}
        canPrevious={table.getCanPreviousPage()}
        canNext={table.getCanNextPage()}
        onPage={(page) => table.setPageIndex(page)}
      />
    </Stack>
  );
}
