import type { ContestRow } from '@concurso/shared';
import type { DataColumn } from '../../ui/data-table/table-model';
import { compareDates, formatDate } from '../../ui/date-time';

/**
 * The contests table's DATE (SPEC.md section 2): shown, searched and exported as `dd/mm/aaaa` (issue
 * 14: the Spanish form everywhere a person reads; the wire keeps `YYYY-MM-DD`), sorted by the day
 * itself, not by the shown text (whose first figures are the day of the month).
 */
export function contestDateColumn<T extends Pick<ContestRow, 'date'>>(): DataColumn<T> {
  return {
    id: 'date',
    accessorFn: (row) => formatDate(row.date),
    header: 'DATE',
    sortingFn: (a, b) => compareDates(a.original.date, b.original.date),
  };
}
