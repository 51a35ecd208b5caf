import type { ObservedSort } from '@concurso/shared';
import type { DataColumn } from '../../ui/data-table/table-model';
import type { ObservedTableRow } from './observed-rows';

/**
 * The /procesosObservados table's columns, each shown and exported as its text. The
 * server sorts, so a sortable column's id is its `sort` (`OBSERVED_SORTS`); EQUIPOS, MÁQUINA Y
 * RUTA, HUELLA and ESTADO do not sort.
 */
export const OBSERVED_COLUMNS: DataColumn<ObservedTableRow>[] = [
  { id: 'name' satisfies ObservedSort, accessorKey: 'name', header: 'PROGRAMA' },
  { id: 'machines' satisfies ObservedSort, accessorKey: 'machines', header: 'MÁQUINAS' },
  { accessorKey: 'teams', header: 'EQUIPOS', enableSorting: false },
  { accessorKey: 'where', header: 'MÁQUINA Y RUTA', enableSorting: false },
  { id: 'first_seen' satisfies ObservedSort, accessorKey: 'firstSeen', header: 'PRIMERA VEZ' },
  { id: 'last_seen' satisfies ObservedSort, accessorKey: 'lastSeen', header: 'ÚLTIMA VEZ' },
  { id: 'count' satisfies ObservedSort, accessorKey: 'count', header: 'VECES' },
  { accessorKey: 'fingerprint', header: 'HUELLA (SHA-256)', enableSorting: false },
  { accessorKey: 'state', header: 'ESTADO', enableSorting: false },
];
