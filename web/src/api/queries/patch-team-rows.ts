import type { BoardTeam, TeamRow } from '@concurso/shared';

/**
 * The teams list after a live board row (`team.updated`): a block or unblock by a judge changes
 * ESTATUS without a `catalog.changed`. Answers the same array when the status did not change (an
 * agent's attempt), so the table does not re-render for every attempt.
 */
export function patchTeamRows(rows: TeamRow[], team: BoardTeam): TeamRow[] {
  const index = rows.findIndex((row) => row.id === team.id);
  const row = index >= 0 ? rows[index] : undefined;
  if (!row) return rows;
  if (row.status_team.id === team.status_team.id && row.status_team.status === team.status_team.status) {
    return rows;
  }
  const next = rows.slice();
  next[index] = { ...row, status_team: { id: team.status_team.id, status: team.status_team.status } };
  return next;
}
