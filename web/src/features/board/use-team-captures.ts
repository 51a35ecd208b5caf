import { useEffect, useState } from 'react';
import type { CaptureRow } from '@concurso/shared';
import { listCaptures } from '../../api/capture-api';

/** A new attempt's captures reach the server about a second after it: read again this long after (ms). */
const CAPTURES_FOLLOW_MS = 2_000;

/**
 * The team's captures in the active contest by attempt id (`attempts_id`), for the 'Historial' dialog:
 * read while `open`, again whenever `version` changes (the attempts list was refetched) and once more
 * `CAPTURES_FOLLOW_MS` later. A failed read leaves the thumbnails out (the attempts still show).
 */
export function useTeamCaptures(teamId: number | undefined, open: boolean, version: unknown) {
  const [byAttempt, setByAttempt] = useState<ReadonlyMap<number, CaptureRow[]>>(new Map());
  useEffect(() => {
    if (!open || teamId === undefined) return;
    const controller = new AbortController();
    const read = () =>
      listCaptures(teamId, undefined, controller.signal)
        .then((rows) => setByAttempt(groupByAttempt(rows)))
        .catch(() => undefined);
    void read();
    const again = setTimeout(read, CAPTURES_FOLLOW_MS);
    return () => {
      controller.abort();
      clearTimeout(again);
    };
  }, [teamId, open, version]);
  return byAttempt;
}

/** Captures grouped by their attempt's id (those of no attempt, «Ver pantalla»'s, left out). */
function groupByAttempt(rows: readonly CaptureRow[]): Map<number, CaptureRow[]> {
  const groups = new Map<number, CaptureRow[]>();
  for (const row of rows) {
    if (row.attempts_id === null) continue;
    const group = groups.get(row.attempts_id) ?? [];
    group.push(row);
    groups.set(row.attempts_id, group);
  }
  return groups;
}
