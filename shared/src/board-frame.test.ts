import { describe, expect, it } from 'vitest';
import { BOARD_ACK_EVERY, BOARD_PUSH_CREDIT, NEW_PROGRAM_RECENT_MS, TEAM_STATUS } from './constants.js';
import { boardAckPolicy, decodeBoardFrame, encodeBoardRow } from './board-frame.js';
import { isRecentNewProgram, type BoardTeam } from './schemas/board.js';

describe('board frame', () => {
  const team: BoardTeam = {
    id: 7,
    name: 'Los Ñandúes',
    levels_id: 2,
    number_attempts: 3,
    status_team: { id: TEAM_STATUS.disqualified, status: 'Descalificado' },
    agent_online: true,
    agent_alert: null,
    version: 11,
  };

  it('round-trips a board row through its tuple', () => {
    expect(encodeBoardRow(team)).toEqual([7, 11, 2, 3, 2, 1, 'Los Ñandúes']);
    expect(decodeBoardFrame([5, 1000.5, [encodeBoardRow(team)]])).toEqual({
      seq: 5,
      committedAt: 1000.5,
      teams: [team],
    });
  });

  it('carries «programa nuevo» as a trailing [name, at] only when the team has one', () => {
    const marked = { ...team, new_program: { name: 'herramienta-x', at: 1_800_000_000_000 } };
    expect(encodeBoardRow(marked)).toEqual([
      7,
      11,
      2,
      3,
      2,
      1,
      'Los Ñandúes',
      ['herramienta-x', 1_800_000_000_000],
    ]);
    expect(decodeBoardFrame([1, 0, [encodeBoardRow(marked)]]).teams[0]).toEqual(marked);
    expect(encodeBoardRow({ ...team, new_program: null })).toHaveLength(7);
  });

  it('shows a «programa nuevo» mark while its latest start is recent', () => {
    const at = 1_800_000_000_000;
    expect(isRecentNewProgram({ at }, at + NEW_PROGRAM_RECENT_MS - 1)).toBe(true);
    expect(isRecentNewProgram({ at }, at + NEW_PROGRAM_RECENT_MS)).toBe(false);
    expect(isRecentNewProgram(null, at)).toBe(false);
  });

  it("carries an offline agent's alert in the agent slot", () => {
    for (const [agent_online, agent_alert, code] of [
      [true, null, 1],
      [false, null, 0],
      [false, 'sin_senal', 2],
      [false, 'detenido', 3],
      [false, 'sin_reanudar', 4],
    ] as const) {
      const row = { ...team, agent_online, agent_alert };
      expect(encodeBoardRow(row)[5]).toBe(code);
      expect(decodeBoardFrame([1, 0, [encodeBoardRow(row)]]).teams[0]).toEqual(row);
    }
  });

  it('acknowledges every BOARD_ACK_EVERY-th frame, well within the credit', () => {
    expect(BOARD_PUSH_CREDIT).toBeGreaterThanOrEqual(2 * BOARD_ACK_EVERY);
    const ack = boardAckPolicy();
    const sent = [10, 11, 12, 13, 14, 15, 16, 17].map(ack);
    expect(sent.filter((seq) => seq !== null)).toEqual([
      10 + BOARD_ACK_EVERY - 1,
      10 + 2 * BOARD_ACK_EVERY - 1,
    ]);
  });
});
