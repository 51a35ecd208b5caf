import { describe, expect, it } from 'vitest';
import type { BoardTeam, TeamAttempts } from '@concurso/shared';
import { boardTeam } from '@concurso/shared/test-support/board-team';
import {
  EMPTY_BOARD,
  applyBoardEvents,
  applySnapshot,
  type BoardData,
  type BoardEvent,
} from '../../stores/board-state';
import { ALERT_MIN_GAP_MS, alertDue, alertReasons, attemptAlertFor } from './attempt-alert';
import { attemptBurstDue, type LastAttemptAt } from './attempt-bursts';

function team(id: number, attempts: number, overrides: Partial<BoardTeam> = {}): BoardTeam {
  return boardTeam(id, {
    number_attempts: attempts,
    agent_online: true,
    version: attempts + 1,
    ...overrides,
  });
}

/** A `GET /api/teamAttempts` answer: a fresh contest object each time, as the JSON parse gives it. */
function snapshot(...teams: BoardTeam[]): TeamAttempts {
  return {
    contest: {
      id: 7,
      calendar: '2026B',
      date: '2026-11-22',
      active: true,
      max_attempts: null,
      observe_processes: true,
      allowed_sites: [],
      network_version: 0,
    },
    basico: teams,
    intermedio: [],
    avanzado: [],
  };
}

/** What the store does with a snapshot (board-store.ts `refresh`): the snapshot, then the buffered events. */
const afterSnapshot = (state: BoardData, answer: TeamAttempts, replay: BoardEvent[] = []) =>
  applyBoardEvents(applySnapshot(state, answer), replay);
/** What the store does with a frame's rows (board-store.ts `receive`). */
const afterFrame = (state: BoardData, ...teams: BoardTeam[]) =>
  applyBoardEvents(
    state,
    teams.map((row): BoardEvent => ({ type: 'updated', team: row })),
  );

describe('attemptAlertFor (which board changes sound)', () => {
  const first = afterSnapshot(EMPTY_BOARD, snapshot(team(1, 2), team(2, 0)));

  it('is silent on the first snapshot, however many attempts it shows', () => {
    expect(attemptAlertFor(EMPTY_BOARD, first)).toBe(false);
  });

  it("sounds when a frame raises a held team's attempts", () => {
    expect(attemptAlertFor(first, afterFrame(first, team(2, 1)))).toBe(true);
  });

  it('sounds when one row of a frame of several rows raises its attempts', () => {
    const frame = afterFrame(first, team(1, 2, { agent_online: false, version: 9 }), team(2, 1));
    expect(attemptAlertFor(first, frame)).toBe(true);
  });

  it('is silent for frames that change anything but attempts (status, agent, name, level)', () => {
    const blocked = team(1, 2, { status_team: { id: 2, status: 'Bloqueado' }, version: 5 });
    expect(attemptAlertFor(first, afterFrame(first, blocked))).toBe(false);
    expect(attemptAlertFor(first, afterFrame(first, team(2, 0, { agent_online: false, version: 5 })))).toBe(
      false,
    );
    expect(attemptAlertFor(first, afterFrame(first, team(2, 0, { name: 'Otro nombre', version: 5 })))).toBe(
      false,
    );
  });

  it("sounds when a held team's agent falls silent, not when it is stopped or stays silent", () => {
    const silent = team(2, 0, { agent_online: false, agent_alert: 'sin_senal', version: 5 });
    const alarmed = afterFrame(first, silent);
    expect(attemptAlertFor(first, alarmed)).toBe(true);
    expect(attemptAlertFor(alarmed, afterFrame(alarmed, { ...silent, version: 6 }))).toBe(false);
    const stopped = team(2, 0, { agent_online: false, agent_alert: 'detenido', version: 5 });
    expect(attemptAlertFor(first, afterFrame(first, stopped))).toBe(false);
  });

  it('sounds when a stopped agent is not resumed within the window («Agente detenido sin reanudar»), once', () => {
    const stopped = team(2, 0, { agent_online: false, agent_alert: 'detenido', version: 5 });
    const held = afterFrame(first, stopped);
    const notResumed = { ...stopped, agent_alert: 'sin_reanudar' as const, version: 6 };
    const alarmed = afterFrame(held, notResumed);
    expect(attemptAlertFor(held, alarmed)).toBe(true);
    expect(attemptAlertFor(alarmed, afterFrame(alarmed, { ...notResumed, version: 7 }))).toBe(false);
  });

  it('is silent for a frame the version rule drops, and for an older row', () => {
    const late = team(2, 3, { version: 0 });
    const held = afterFrame(first, team(2, 1, { version: 4 }));
    expect(attemptAlertFor(held, afterFrame(held, late))).toBe(false);
  });

  it('is silent for a team new to the board, even with attempts', () => {
    expect(attemptAlertFor(first, afterFrame(first, team(3, 4)))).toBe(false);
  });

  it('is silent for a removed team', () => {
    const removed = applyBoardEvents(first, [{ type: 'removed', payload: { id: 2, levels_id: 1 } }]);
    expect(attemptAlertFor(first, removed)).toBe(false);
  });

  it('is silent on the refetch after a reconnect, even though attempts grew while away', () => {
    const away = afterSnapshot(first, snapshot(team(1, 5), team(2, 3)));
    expect(away.teams[1]?.number_attempts).toBe(5);
    expect(attemptAlertFor(first, away)).toBe(false);
    // With frames received during the refetch replayed on top: still the snapshot's change.
    const replayed = afterSnapshot(first, snapshot(team(1, 5), team(2, 3)), [
      { type: 'updated', team: team(2, 4) },
    ]);
    expect(attemptAlertFor(first, replayed)).toBe(false);
    // The next frame after it sounds again.
    expect(attemptAlertFor(replayed, afterFrame(replayed, team(1, 6)))).toBe(true);
  });

  it('is silent when the board empties (the screen leaves, the session ends)', () => {
    expect(attemptAlertFor(first, EMPTY_BOARD)).toBe(false);
  });
});

describe('alertDue (at most one sound a second)', () => {
  it('lets the first sound play and the next only after the gap', () => {
    expect(alertDue(null, 0)).toBe(true);
    expect(alertDue(10_000, 10_000 + ALERT_MIN_GAP_MS - 1)).toBe(false);
    expect(alertDue(10_000, 10_000 + ALERT_MIN_GAP_MS)).toBe(true);
    expect(ALERT_MIN_GAP_MS).toBeGreaterThanOrEqual(800);
    expect(ALERT_MIN_GAP_MS).toBeLessThanOrEqual(1500);
  });
});

describe('a restart loop rings once (alertReasons with attemptBurstDue, as use-attempt-alert.ts does)', () => {
  const first = afterSnapshot(EMPTY_BOARD, snapshot(team(1, 0), team(2, 0)));

  it('twelve frames a second apart each raising the same team ring once; an agent alarm meanwhile still rings', () => {
    const last: LastAttemptAt = new Map();
    let board = first;
    const rings: boolean[] = [];
    for (let i = 1; i <= 12; i++) {
      const next = afterFrame(board, team(1, i));
      const reasons = alertReasons(board, next);
      expect(reasons).toEqual({ attempts: [1], alarm: false });
      rings.push(attemptBurstDue(last, reasons.attempts, i * 1_000) || reasons.alarm);
      board = next;
    }
    expect(rings.filter(Boolean)).toHaveLength(1);
    expect(rings[0]).toBe(true);
    const silent = afterFrame(
      board,
      team(2, 0, { agent_online: false, agent_alert: 'sin_senal', version: 9 }),
    );
    expect(alertReasons(board, silent)).toEqual({ attempts: [], alarm: true });
  });
});
