import type { ContestRow } from '@concurso/shared';
import type { DataColumn } from '../../ui/data-table/table-model';
import { formatDate } from '../../ui/date-time';

/**
 * The contests table's DATE (docs/spec.md section 2): shown, searched and exported as `dd/mm/aaaa`
 * (the Spanish form everywhere a person reads; the wire keeps `YYYY-MM-DD`), sorted by the wire's
 * `YYYY-MM-DD`, whose text order is the days' order (the shown text starts with the day of the month).
 */
export function contestDateColumn<T extends Pick<ContestRow, 'date'>>(): DataColumn<T> {
  return {
    id: 'date',
    accessorFn: (row) => formatDate(row.date),
    header: 'DATE',
    sortingFn: (a, b) => a.original.date.localeCompare(b.original.date),
  };
}
