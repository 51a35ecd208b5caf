import type { Row } from '@tanstack/react-table';
import { CONTEST_LOG_HEADERS } from '@concurso/shared';
import type { DataColumn } from '../../ui/data-table/table-model';
import type { ContestLogTableRow } from './contest-log-rows';

/**
 * The /bitacora table's columns, one per `CONTEST_LOG_HEADERS` entry in its order, each
 * shown, searched and exported as its text. FECHA is first, so the table opens sorted by it descending
 * (newest first); it sorts by the row's place in the server's order, not by its `dd/mm/aaaa` text
 * (which would put 30/10 after 02/11).
 */
export const CONTEST_LOG_COLUMNS: DataColumn<ContestLogTableRow>[] = (
  Object.keys(CONTEST_LOG_HEADERS) as Array<keyof typeof CONTEST_LOG_HEADERS>
).map((key) => ({
  accessorKey: key,
  header: CONTEST_LOG_HEADERS[key],
  ...(key === 'at' && {
    sortingFn: (a: Row<ContestLogTableRow>, b: Row<ContestLogTableRow>) =>
      a.original.order - b.original.order,
  }),
}));
