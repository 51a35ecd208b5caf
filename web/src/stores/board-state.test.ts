import { describe, expect, it } from 'vitest';
import {
  decodeBoardFrame,
  type BoardFrame,
  type BoardTeam,
  type TeamAttempts,
  type TeamRemovedPayload,
} from '@concurso/shared';
import { contestRow } from '@concurso/shared/test-support/contest-row';
import {
  EMPTY_BOARD,
  applyBoardEvents,
  boardFrameEvents,
  applySnapshot,
  teamsOfLevel,
  type BoardData,
} from './board-state';

function team(overrides: Partial<BoardTeam> & Pick<BoardTeam, 'id'>): BoardTeam {
  return {
    name: `Equipo ${overrides.id}`,
    levels_id: 1,
    number_attempts: 0,
    status_team: { id: 1, status: 'Activo' },
    agent_online: false,
    agent_alert: null,
    version: 1,
    ...overrides,
  };
}

const CONTEST = contestRow({ id: 7 });

function snapshot(rows: Partial<Record<'basico' | 'intermedio' | 'avanzado', BoardTeam[]>>): TeamAttempts {
  return {
    contest: CONTEST,
    basico: rows.basico ?? [],
    intermedio: rows.intermedio ?? [],
    avanzado: rows.avanzado ?? [],
  };
}

function boardWith(...teams: BoardTeam[]): BoardData {
  return { contest: null, teams: Object.fromEntries(teams.map((t) => [t.id, t])) };
}

describe('applySnapshot', () => {
  it('replaces every held team and the contest with the snapshot', () => {
    const held = boardWith(team({ id: 1, number_attempts: 9 }), team({ id: 99, name: 'Ya no existe' }));
    const next = applySnapshot(
      held,
      snapshot({
        basico: [team({ id: 1, number_attempts: 2 })],
        avanzado: [team({ id: 3, levels_id: 3, name: 'Gamma' })],
      }),
    );

    expect(Object.keys(next.teams).map(Number).sort()).toEqual([1, 3]);
    expect(next.teams[1]?.number_attempts).toBe(2);
    expect(next.teams[99]).toBeUndefined();
    expect(next.contest).toEqual(CONTEST);
  });

  it('replaces even teams whose held version is higher (the snapshot is the truth)', () => {
    const held = boardWith(team({ id: 1, version: 10, number_attempts: 10 }));
    const next = applySnapshot(held, snapshot({ basico: [team({ id: 1, version: 4, number_attempts: 4 })] }));
    expect(next.teams[1]?.number_attempts).toBe(4);
    expect(next.teams[1]?.version).toBe(4);
  });

  it('keeps a null contest and fills a missing level from the list the row came in', () => {
    const row = { ...team({ id: 5 }), levels_id: undefined } as unknown as BoardTeam;
    const next = applySnapshot(EMPTY_BOARD, { ...snapshot({ intermedio: [row] }), contest: null });
    expect(next.contest).toBeNull();
    expect(next.teams[5]?.levels_id).toBe(2);
  });

  it('does not modify the state it was given', () => {
    const held = boardWith(team({ id: 1 }));
    applySnapshot(held, snapshot({}));
    expect(held.teams[1]).toBeDefined();
  });
});

/** One pushed row, applied as the store applies a frame's rows. */
const updated = (state: BoardData, row: BoardTeam) =>
  applyBoardEvents(state, [{ type: 'updated', team: row }]);
/** One `team.removed`, applied as the store applies it. */
const removed = (state: BoardData, payload: TeamRemovedPayload) =>
  applyBoardEvents(state, [{ type: 'removed', payload }]);

describe('applyBoardEvents: one updated row', () => {
  it('inserts a team that is not held', () => {
    const next = updated(EMPTY_BOARD, team({ id: 4, number_attempts: 1 }));
    expect(next.teams[4]?.number_attempts).toBe(1);
  });

  it('applies a newer version', () => {
    const held = boardWith(team({ id: 1, version: 3, number_attempts: 3 }));
    const next = updated(held, team({ id: 1, version: 4, number_attempts: 4 }));
    expect(next.teams[1]?.number_attempts).toBe(4);
    expect(next.teams[1]?.version).toBe(4);
  });

  it('drops an older version and returns the very same state', () => {
    const held = boardWith(team({ id: 1, version: 5, number_attempts: 5 }));
    const next = updated(held, team({ id: 1, version: 4, number_attempts: 4 }));
    expect(next).toBe(held);
    expect(next.teams[1]?.number_attempts).toBe(5);
  });

  it('accepts an event of the same version (a repeated delivery changes nothing harmful)', () => {
    const held = boardWith(team({ id: 1, version: 5, number_attempts: 5 }));
    const next = updated(held, team({ id: 1, version: 5, number_attempts: 5 }));
    expect(next.teams[1]).toEqual(held.teams[1]);
  });

  it('applies status changes (block) and keeps the other teams untouched', () => {
    const other = team({ id: 2, version: 1 });
    const held = boardWith(team({ id: 1, version: 1 }), other);
    const next = updated(held, team({ id: 1, version: 2, status_team: { id: 2, status: 'Descalificado' } }));
    expect(next.teams[1]?.status_team).toEqual({ id: 2, status: 'Descalificado' });
    expect(next.teams[2]).toBe(other);
    expect(held.teams[1]?.status_team.id).toBe(1);
  });

  it('moves a team to another table when its level changes', () => {
    const held = boardWith(
      team({ id: 1, name: 'Alfa', levels_id: 1, version: 1 }),
      team({ id: 2, name: 'Beta' }),
    );
    const next = updated(held, team({ id: 1, name: 'Alfa', levels_id: 3, version: 2 }));
    expect(teamsOfLevel(next.teams, 'basico').map((t) => t.id)).toEqual([2]);
    expect(teamsOfLevel(next.teams, 'avanzado').map((t) => t.id)).toEqual([1]);
  });

  it('does not move a team back on an older event', () => {
    const held = boardWith(team({ id: 1, levels_id: 3, version: 6 }));
    const next = updated(held, team({ id: 1, levels_id: 1, version: 5 }));
    expect(teamsOfLevel(next.teams, 'basico')).toEqual([]);
    expect(teamsOfLevel(next.teams, 'avanzado').map((t) => t.id)).toEqual([1]);
  });
});

describe('applyBoardEvents: a removal', () => {
  it('deletes the team', () => {
    const held = boardWith(team({ id: 1 }), team({ id: 2 }));
    const next = removed(held, { id: 1, levels_id: 1 });
    expect(next.teams[1]).toBeUndefined();
    expect(next.teams[2]).toBeDefined();
    expect(held.teams[1]).toBeDefined();
  });

  it('is a no-op for a team that is not held', () => {
    const held = boardWith(team({ id: 1 }));
    expect(removed(held, { id: 42, levels_id: 2 })).toBe(held);
  });
});

describe('applyBoardEvents: several events', () => {
  it('replays buffered events on top of a snapshot read before them', () => {
    const base = applySnapshot(
      EMPTY_BOARD,
      snapshot({ basico: [team({ id: 1, version: 3, number_attempts: 3 }), team({ id: 2, version: 1 })] }),
    );
    const next = applyBoardEvents(base, [
      { type: 'updated', team: team({ id: 1, version: 2, number_attempts: 2 }) }, // older than the snapshot
      { type: 'updated', team: team({ id: 1, version: 4, number_attempts: 4 }) },
      { type: 'removed', payload: { id: 2, levels_id: 1 } },
      { type: 'updated', team: team({ id: 8, version: 1, levels_id: 2 }) },
    ]);
    expect(next.teams[1]?.number_attempts).toBe(4);
    expect(next.teams[2]).toBeUndefined();
    expect(next.teams[8]?.levels_id).toBe(2);
  });
});

describe('applyBoardEvents, one copy', () => {
  it('answers the same board when every event is dropped (no re-render), and never mutates the old one', () => {
    const held = boardWith(team({ id: 1, version: 5 }), team({ id: 2, version: 1 }));
    expect(
      applyBoardEvents(held, [
        { type: 'updated', team: team({ id: 1, version: 4 }) },
        { type: 'removed', payload: { id: 9, levels_id: 1 } },
      ]),
    ).toBe(held);

    const next = applyBoardEvents(held, [
      { type: 'updated', team: team({ id: 2, version: 2, number_attempts: 7 }) },
      { type: 'removed', payload: { id: 1, levels_id: 1 } },
      // Removed earlier in the same batch: a late row of it counts as new again, as one at a time would.
      { type: 'updated', team: team({ id: 1, version: 3 }) },
    ]);
    expect(next.teams[2]?.number_attempts).toBe(7);
    expect(next.teams[1]?.version).toBe(3);
    expect(held.teams[2]?.version).toBe(1);
    expect(held.teams[1]?.version).toBe(5);
  });
});

describe('boardFrameEvents', () => {
  it('turns every row of a board.frame into an updated event, in order', () => {
    const frame: BoardFrame = [
      12,
      1763830000123.4,
      [
        [5, 17, 1, 3, 1, 1, 'Equipo 5'],
        [6, 2, 3, 0, 2, 2, 'Ñandú'],
      ],
    ];
    expect(boardFrameEvents(decodeBoardFrame(frame).teams)).toEqual([
      {
        type: 'updated',
        team: {
          id: 5,
          version: 17,
          levels_id: 1,
          number_attempts: 3,
          status_team: { id: 1, status: 'Activo' },
          agent_online: true,
          agent_alert: null,
          name: 'Equipo 5',
        },
      },
      {
        type: 'updated',
        team: {
          id: 6,
          version: 2,
          levels_id: 3,
          number_attempts: 0,
          status_team: { id: 2, status: 'Descalificado' },
          agent_online: false,
          agent_alert: 'sin_senal',
          name: 'Ñandú',
        },
      },
    ]);
    expect(boardFrameEvents(decodeBoardFrame([13, 1763830000173.4, []]).teams)).toEqual([]);
  });
});

describe('teamsOfLevel', () => {
  it('lists only the level’s teams, sorted by name in Spanish order', () => {
    const board = boardWith(
      team({ id: 1, name: 'zeta' }),
      team({ id: 2, name: 'Ñandú' }),
      team({ id: 3, name: 'Águila' }),
      team({ id: 4, name: 'Equipo 10' }),
      team({ id: 5, name: 'Equipo 9' }),
      team({ id: 6, name: 'Otro nivel', levels_id: 2 }),
    );
    expect(teamsOfLevel(board.teams, 'basico').map((t) => t.name)).toEqual([
      'Águila',
      'Equipo 9',
      'Equipo 10',
      'Ñandú',
      'zeta',
    ]);
    expect(teamsOfLevel(board.teams, 'intermedio').map((t) => t.id)).toEqual([6]);
    expect(teamsOfLevel(board.teams, 'avanzado')).toEqual([]);
  });
});
