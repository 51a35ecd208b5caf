import { describe, expect, it } from 'vitest';
import type { BoardTeam, TeamRow } from '@concurso/shared';
import { boardTeam } from '@concurso/shared/test-support/board-team';
import { patchTeamRows } from './patch-team-rows';

describe('patchTeamRows', () => {
  const team = (id: number, statusId: number): TeamRow => ({
    id,
    name: `Equipo ${id}`,
    levels_id: 1,
    coaches_id: 1,
    contests_id: 1,
    number_attempts: 0,
    status_team: { id: statusId, status: statusId === 1 ? 'Activo' : 'Descalificado' },
    coach: { id: 1, name: 'Coach' },
    level: { id: 1, level: 'Básico' },
    contest: { id: 1, calendar: '2026B' },
    has_agent_key: false,
  });
  const board = (id: number, statusId: number, attempts = 0): BoardTeam =>
    boardTeam(id, { number_attempts: attempts, version: 2 }, statusId);

  it('shows a judge’s block in ESTATUS', () => {
    const rows = [team(1, 1), team(2, 1)];
    const next = patchTeamRows(rows, [board(2, 2)]);
    expect(next).not.toBe(rows);
    expect(next[1]?.status_team).toEqual({ id: 2, status: 'Descalificado' });
    expect(next[0]).toBe(rows[0]);
  });

  it('patches every changed team of a frame in one new array; a team given twice ends on its last row', () => {
    const rows = [team(1, 1), team(2, 1), team(3, 2)];
    const next = patchTeamRows(rows, [board(1, 2), board(3, 1), board(2, 2), board(2, 1, 4)]);
    expect(next.map((row) => row.status_team.id)).toEqual([2, 1, 1]);
    expect(next[1]).toBe(rows[1]);
    expect(rows.map((row) => row.status_team.id)).toEqual([1, 1, 2]); // the cached list is not mutated
  });

  it('keeps the same array for attempts, unknown teams or no rows, so the table does not re-render', () => {
    const rows = [team(1, 1)];
    expect(patchTeamRows(rows, [board(1, 1, 5)])).toBe(rows);
    expect(patchTeamRows(rows, [board(9, 2), board(1, 1, 6)])).toBe(rows);
    expect(patchTeamRows(rows, [])).toBe(rows);
  });
});
