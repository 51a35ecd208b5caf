import type { DataColumn } from '../../ui/data-table/table-model';
import type { ObservedTableRow } from './observed-rows';

/**
 * The /procesosObservados table's columns (issue 14), each shown, searched and exported as its text.
 * MÁQUINAS and the times sort by their numbers and instants, not their text ('10 máquinas' after '9').
 */
export const OBSERVED_COLUMNS: DataColumn<ObservedTableRow>[] = [
  { accessorKey: 'name', header: 'PROGRAMA' },
  {
    accessorKey: 'machines',
    header: 'MÁQUINAS',
    sortingFn: (a, b) => a.original.machineCount - b.original.machineCount,
  },
  { accessorKey: 'teams', header: 'EQUIPOS' },
  {
    accessorKey: 'firstSeen',
    header: 'PRIMERA VEZ',
    sortingFn: (a, b) => a.original.firstSeenIso.localeCompare(b.original.firstSeenIso),
  },
  {
    accessorKey: 'lastSeen',
    header: 'ÚLTIMA VEZ',
    sortingFn: (a, b) => a.original.lastSeenIso.localeCompare(b.original.lastSeenIso),
  },
  { accessorKey: 'count', header: 'VECES' },
  { accessorKey: 'fingerprint', header: 'HUELLA (SHA-256)' },
  { accessorKey: 'state', header: 'ESTADO' },
];
