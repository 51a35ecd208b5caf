import {
  functionalUpdate,
  getCoreRowModel,
  type PaginationState,
  type SortingState,
  type TableOptions,
  type Updater,
} from '@tanstack/react-table';
import type { PageSummary } from './table-texts';
import type { DataColumn, RowWithId } from './table-model';

/**
 * A table whose rows live on the server (the observed inventory may hold 250,000 rows):
 * TanStack Table in manual mode. The table shows one page the server answered; paging, sorting and the
 * search are state the feature turns into the next query. Pure, so the unit tests drive it headless.
 */

/** What the server is asked for: the page, its size, one sorted column and the search text. */
export interface ServerTableState {
  pageIndex: number;
  pageSize: number;
  /** The sorted column's id and direction (one column at a time, like DataTables). */
  sorting: SortingState;
  search: string;
}

/**
 * The TanStack options of a server-paged table: manual pagination, sorting and filtering, `rowCount`
 * from the server's `total`, the state held by the caller, and every change (a header click, a page
 * button) handed to `onChange` as the next state; a new order goes back to the first page.
 */
export function serverTableOptions<T extends RowWithId>({
  rows,
  columns,
  total,
  state,
  onChange,
}: {
  rows: T[];
  columns: DataColumn<T>[];
  total: number;
  state: ServerTableState;
  onChange: (update: (previous: ServerTableState) => ServerTableState) => void;
}): Pick<
  TableOptions<T>,
  | 'data'
  | 'columns'
  | 'getRowId'
  | 'getCoreRowModel'
  | 'manualPagination'
  | 'manualSorting'
  | 'manualFiltering'
  | 'rowCount'
  | 'state'
  | 'onPaginationChange'
  | 'onSortingChange'
  | 'sortDescFirst'
  | 'enableSortingRemoval'
  | 'enableMultiSort'
> {
  return {
    data: rows,
    columns,
    getRowId: (row) => String(row.id),
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    rowCount: total,
    state: {
      pagination: { pageIndex: state.pageIndex, pageSize: state.pageSize },
      sorting: state.sorting,
      globalFilter: state.search,
    },
    onPaginationChange: (updater: Updater<PaginationState>) =>
      onChange((previous) => {
        const next = functionalUpdate(updater, {
          pageIndex: previous.pageIndex,
          pageSize: previous.pageSize,
        });
        return { ...previous, ...next };
      }),
    onSortingChange: (updater: Updater<SortingState>) =>
      onChange((previous) => ({
        ...previous,
        sorting: functionalUpdate(updater, previous.sorting),
        pageIndex: 0,
      })),
    sortDescFirst: false,
    enableSortingRemoval: false,
    enableMultiSort: false,
  };
}

/** The 'Mostrando…' numbers of a server page: its first and last row of `total` (no "filtered from"). */
export function serverPageSummary(
  state: Pick<ServerTableState, 'pageIndex' | 'pageSize'>,
  shown: number,
  total: number,
): PageSummary {
  if (total === 0 || shown === 0) return { start: 0, end: 0, total, max: total };
  const start = state.pageIndex * state.pageSize + 1;
  return { start, end: start + shown - 1, total, max: total };
}

/** Pages of `total` rows at `pageSize` a page (at least one). */
export function serverPageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
