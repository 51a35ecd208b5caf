import type { BoardTeam, TeamRow } from '@concurso/shared';

/**
 * The teams list after live board rows (a `board.frame`'s): a block or unblock by a judge
 * changes ESTATUS without a `catalog.changed`. Answers the same array when no status changed (agents'
 * attempts), so the table does not re-render for every attempt. One pass over the list whatever the
 * number of rows (a catch-up frame can carry every team); when a team comes twice, its last row counts.
 */
export function patchTeamRows(rows: TeamRow[], teams: readonly BoardTeam[]): TeamRow[] {
  if (teams.length === 0) return rows;
  const statusById = new Map(teams.map((team) => [team.id, team.status_team]));
  let next: TeamRow[] | null = null;
  for (const [index, row] of rows.entries()) {
    const status = statusById.get(row.id);
    if (!status) continue;
    if (row.status_team.id === status.id && row.status_team.status === status.status) continue;
    next ??= rows.slice();
    next[index] = { ...row, status_team: { id: status.id, status: status.status } };
  }
  return next ?? rows;
}
