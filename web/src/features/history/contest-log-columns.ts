import type { DataColumn } from '../../ui/data-table/table-model';
import type { ContestLogTableRow } from './contest-log-rows';

/**
 * The /bitacora table's columns (issue 13), each shown, searched and exported as its text. FECHA is
 * first, so the table opens sorted by it descending (newest first); it sorts by the row's place in the
 * server's order, not by its `dd/mm/aaaa` text (which would put 30/10 after 02/11).
 */
export const CONTEST_LOG_COLUMNS: DataColumn<ContestLogTableRow>[] = [
  {
    accessorKey: 'at',
    header: 'FECHA',
    sortingFn: (a, b) => a.original.order - b.original.order,
  },
  { accessorKey: 'kind', header: 'TIPO' },
  { accessorKey: 'team', header: 'EQUIPO' },
  { accessorKey: 'level', header: 'NIVEL' },
  { accessorKey: 'process', header: 'PROCESO' },
  { accessorKey: 'occurredAt', header: 'EN LA MÁQUINA' },
  { accessorKey: 'killed', header: 'TERMINADO' },
  { accessorKey: 'change', header: 'CAMBIO' },
  { accessorKey: 'who', header: 'QUIÉN' },
];
