import { useEffect, useRef, useState } from 'react';
import { Box } from '@chakra-ui/react';
import type { CaptureRow } from '@concurso/shared';
import { fetchCaptureImage, listCaptures } from '../../api/capture-api';
import type { DataColumn } from '../../ui/data-table/table-model';
import { CaptureThumbnails } from '../../ui/captures/capture-thumbnails';
import { useNearViewport } from '../../ui/layout/use-near-viewport';
import type { ContestLogTableRow } from './contest-log-rows';

/**
 * An attempt's screen captures in its /bitacora row: read only once the row comes near the viewport
 * (the log may hold 5,000 rows; a judge scrolls through few), as thumbnails that enlarge on a click.
 */
function AttemptCaptures({ row }: { row: ContestLogTableRow }) {
  const box = useRef<HTMLDivElement>(null);
  const near = useNearViewport(box);
  const [captures, setCaptures] = useState<CaptureRow[]>([]);
  const attempt = row.attempt;
  useEffect(() => {
    if (!near || !attempt) return;
    const controller = new AbortController();
    listCaptures(attempt.teamId, attempt.attemptId, controller.signal)
      .then(setCaptures)
      .catch(() => undefined);
    return () => controller.abort();
  }, [near, attempt?.teamId, attempt?.attemptId]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <Box ref={box} minHeight="1">
      <CaptureThumbnails
        captures={captures}
        load={fetchCaptureImage}
        title={`Intento de ${row.team}: ${row.process} (${row.occurredAt})`}
      />
    </Box>
  );
}

/**
 * CAPTURAS of /bitacora: an attempt's thumbnails, nothing on other rows. A display column (no
 * value): left out of the search and of the exports.
 */
export const CAPTURES_COLUMN: DataColumn<ContestLogTableRow> = {
  id: 'capturas',
  header: 'CAPTURAS',
  enableSorting: false,
  cell: ({ row }) => (row.original.attempt ? <AttemptCaptures row={row.original} /> : null),
};
