import {
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  type ColumnDef,
  type Row,
  type SortingFn,
  type Table,
  type TableOptions,
} from '@tanstack/react-table';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@concurso/shared';
import { accentInsensitiveFilter } from './search-normalize';
import type { PageSummary } from './table-texts';

/**
 * A column of a {@link DataTable}. Data columns have an accessor (their value is what is shown, searched,
 * sorted and exported); display columns such as ACCIONES have none and are never searched or exported.
 */
// `any`: TanStack's own idiom for a list of columns whose values differ in type (ColumnDef is invariant).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DataColumn<T> = ColumnDef<T, any>;

/** Every row of a catalogue has a numeric id; it becomes the row id (`data-testid="row-{id}"`). */
export interface RowWithId {
  id: number;
}

/** The page-size choice 'Todos' (PAGE_SIZES' -1). */
export const ALL_ROWS = -1;

/** TanStack needs a number: 'Todos' is a page larger than any list. */
const ALL_ROWS_PAGE_SIZE = Number.MAX_SAFE_INTEGER;

/** Above this many rows on one page the body is virtualised (react-virtuoso) so 'Todos' stays smooth. */
export const VIRTUALIZE_ABOVE = 100;

/** The page sizes of the select, in order: 5, 10, 25, 50 and -1 ('Todos'). */
export const PAGE_SIZE_OPTIONS: readonly number[] = PAGE_SIZES;

/** The TanStack page size of a select option (-1 'Todos' becomes "every row"). */
export function toTablePageSize(option: number): number {
  return option === ALL_ROWS ? ALL_ROWS_PAGE_SIZE : option;
}

/** The select option of a TanStack page size (the inverse of {@link toTablePageSize}). */
export function toPageSizeOption(pageSize: number): number {
  return pageSize >= ALL_ROWS_PAGE_SIZE ? ALL_ROWS : pageSize;
}

const collator = new Intl.Collator('es', { numeric: true, sensitivity: 'base' });

/**
 * The sorting of every column: numbers by value, anything else as Spanish text ('Álvaro' sits with the
 * A's, '10' after '9').
 */
const compareCells: SortingFn<unknown> = (rowA, rowB, columnId) => {
  const a: unknown = rowA.getValue(columnId);
  const b: unknown = rowB.getValue(columnId);
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(cellText(a), cellText(b));
};

/** A cell value as text: empty for null or undefined. */
export function cellText(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

// One object for every table and render: TanStack memoises its column models on this reference.
const DEFAULT_COLUMN = { sortingFn: compareCells };

/** The id TanStack gives a column: its `id`, else its `accessorKey`. */
function columnIdOf<T>(column: DataColumn<T> | undefined): string | undefined {
  if (!column) return undefined;
  if (column.id) return column.id;
  return 'accessorKey' in column && typeof column.accessorKey === 'string' ? column.accessorKey : undefined;
}

/**
 * The TanStack options every table shares (docs/spec.md section 2, "Table behaviour"): client-side filtering,
 * sorting and paging by the library, the accent-free search, 5 rows per page and the first column sorted
 * descending. The React component and the unit tests build their tables from these same options.
 */
export function dataTableOptions<T extends RowWithId>(
  data: T[],
  columns: DataColumn<T>[],
): Pick<
  TableOptions<T>,
  | 'data'
  | 'columns'
  | 'getRowId'
  | 'getCoreRowModel'
  | 'getFilteredRowModel'
  | 'getSortedRowModel'
  | 'getPaginationRowModel'
  | 'globalFilterFn'
  | 'defaultColumn'
  | 'sortDescFirst'
  | 'enableSortingRemoval'
  | 'autoResetPageIndex'
  | 'initialState'
> {
  const firstColumn = columnIdOf(columns[0]);
  return {
    data,
    columns,
    getRowId: (row) => String(row.id),
    getCoreRowModel: getCoreRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    globalFilterFn: accentInsensitiveFilter as TableOptions<T>['globalFilterFn'],
    defaultColumn: DEFAULT_COLUMN as TableOptions<T>['defaultColumn'],
    // A header click sorts ascending first and then toggles, like DataTables.
    sortDescFirst: false,
    enableSortingRemoval: false,
    // A refetch (another admin's change) keeps the page the user is reading; the component clamps it.
    autoResetPageIndex: false,
    initialState: {
      sorting: firstColumn ? [{ id: firstColumn, desc: true }] : [],
      pagination: { pageIndex: 0, pageSize: DEFAULT_PAGE_SIZE },
      globalFilter: '',
    },
  };
}

/** The numbers of the 'Mostrando del … al … de … registros' line for the table's current state. */
export function summarizePage<T>(table: Table<T>): PageSummary {
  const total = table.getFilteredRowModel().rows.length;
  const max = table.getCoreRowModel().rows.length;
  const { pageIndex, pageSize } = table.getState().pagination;
  if (total === 0) return { start: 0, end: 0, total, max };
  const start = Math.min(total, pageIndex * pageSize + 1);
  return { start, end: Math.min(total, start - 1 + pageSize), total, max };
}

/** A page button: a 0-based page index, or a gap. */
export type PageButton = number | 'gap';

/**
 * The page buttons between 'Anterior' and 'Siguiente', DataTables style: every page up to 7, otherwise
 * the first, the last and the current one with its neighbours, with gaps between.
 */
export function pageButtons(pageIndex: number, pageCount: number): PageButton[] {
  const count = Math.max(0, pageCount);
  if (count <= 7) return Array.from({ length: count }, (_, i) => i);
  const last = count - 1;
  if (pageIndex < 4) return [0, 1, 2, 3, 4, 'gap', last];
  if (pageIndex > last - 4) return [0, 'gap', last - 4, last - 3, last - 2, last - 1, last];
  return [0, 'gap', pageIndex - 1, pageIndex, pageIndex + 1, 'gap', last];
}

/** The page index to show after the rows changed: the same one, unless it no longer exists. */
export function clampPageIndex(pageIndex: number, pageCount: number): number {
  return Math.max(0, Math.min(pageIndex, pageCount - 1));
}

/** True when this many rows on one page should be virtualised. */
export function shouldVirtualize(pageRows: number): boolean {
  return pageRows > VIRTUALIZE_ABOVE;
}

/** The rows the exports work on: every row left by the search, in the shown order, not only the page. */
export function exportableRows<T>(table: Table<T>): Row<T>[] {
  return table.getPrePaginationRowModel().rows;
}
