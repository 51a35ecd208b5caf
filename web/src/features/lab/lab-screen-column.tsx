import { useMemo } from 'react';
import { fetchCaptureImage, screenOf } from '../../api/capture-api';
import { describeError } from '../../api/api-error';
import type { DataColumn } from '../../ui/data-table/table-model';
import { ViewScreenButton } from '../../ui/captures/view-screen-button';
import type { LabTableRow } from './lab-rows';

/** «Ver pantalla» of one machine: its own request (`hostname`), so only that machine answers. */
function MachineScreenButton({ row }: { row: LabTableRow }) {
  // One request per machine: the same `ask` across the table's refetches keeps the open dialog's.
  const ask = useMemo(() => screenOf(row.teamId, row.hostname), [row.teamId, row.hostname]);
  return (
    <ViewScreenButton
      target={`${row.hostname} (${row.team})`}
      ask={ask}
      load={fetchCaptureImage}
      errorText={describeError}
      testId={`view-screen-${row.machineId}`}
    />
  );
}

/**
 * PANTALLA of /laboratorio (judges and admins, the active contest): «Ver pantalla» on a machine whose
 * agent is online. A display column: left out of the search and the exports.
 */
export const LAB_SCREEN_COLUMN: DataColumn<LabTableRow> = {
  id: 'pantalla',
  header: 'PANTALLA',
  enableSorting: false,
  cell: ({ row }) =>
    row.original.agentState === 'en_linea' ? <MachineScreenButton row={row.original} /> : null,
};
