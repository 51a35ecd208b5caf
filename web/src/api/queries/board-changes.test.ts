import { describe, expect, it, vi } from 'vitest';
import { EVENTS, encodeBoardRow, type BoardFrame, type BoardTeam } from '@concurso/shared';
import { boardTeam } from '@concurso/shared/test-support/board-team';
import { FakeSocket } from '../fake-socket.test-support';
import { createLiveBus, type BusSocket } from '../live-bus';
import { attemptsOrStatusChanged, boardChangeListeners, boardSignatures } from './board-changes';

const row = (id: number, attempts: number, status = 1, online = false): BoardTeam =>
  boardTeam(
    id,
    { number_attempts: attempts, agent_online: online, version: attempts + status + (online ? 100 : 0) },
    status,
  );
const frame = (...rows: BoardTeam[]): BoardFrame => [1, 0, rows.map(encodeBoardRow)];

describe('attemptsOrStatusChanged', () => {
  it('is true for a new attempt, a new status or a new team, not for an agent coming online', () => {
    const known = new Map<number, string>();
    expect(attemptsOrStatusChanged(known, [row(1, 0)])).toBe(true);
    expect(attemptsOrStatusChanged(known, [row(1, 0, 1, true)])).toBe(false);
    expect(attemptsOrStatusChanged(known, [row(1, 1, 1, true)])).toBe(true);
    expect(attemptsOrStatusChanged(known, [row(1, 1, 2, true)])).toBe(true);
    expect(attemptsOrStatusChanged(known, [row(1, 1, 2, false), row(2, 0)])).toBe(true);
    expect(attemptsOrStatusChanged(known, [row(1, 1, 2, true), row(2, 0, 1, true)])).toBe(false);
  });

  it('with withAgent, is true for an agent coming online, falling silent or stopping too', () => {
    const known = boardSignatures([row(1, 0)], true);
    expect(attemptsOrStatusChanged(known, [row(1, 0, 1, true)], true)).toBe(true);
    expect(attemptsOrStatusChanged(known, [{ ...row(1, 0), agent_alert: 'sin_senal' }], true)).toBe(true);
    expect(attemptsOrStatusChanged(known, [{ ...row(1, 0), agent_alert: 'sin_senal' }], true)).toBe(false);
    expect(attemptsOrStatusChanged(known, [{ ...row(1, 0), agent_alert: 'detenido' }], true)).toBe(true);
  });

  it("starts from the board's teams: what the store already holds is not a change", () => {
    const known = boardSignatures([row(1, 3), row(2, 0, 2)]);
    expect(attemptsOrStatusChanged(known, [row(1, 3, 1, true), row(2, 0, 2, true)])).toBe(false);
    expect(attemptsOrStatusChanged(known, [row(2, 1, 2)])).toBe(true);
  });
});

describe('boardChangeListeners (the pushes that refetch the logs and the statistics)', () => {
  const watch = (teamId?: number, held: BoardTeam[] = []) => {
    const socket = new FakeSocket(true);
    const request = vi.fn();
    // The fake plays socket.io's on/off with untyped event names.
    const detach = createLiveBus(socket as unknown as BusSocket).on(
      boardChangeListeners(request, { teamId, known: boardSignatures(held) }),
    );
    return { socket, request, detach };
  };

  it("requests for a frame that changes a team's attempts or status, never for presence only", () => {
    const { socket, request } = watch(undefined, [row(1, 0), row(2, 0)]);
    socket.fire(EVENTS.boardFrame, frame(row(1, 0, 1, true), row(2, 0, 1, true)));
    expect(request).not.toHaveBeenCalled();
    socket.fire(EVENTS.boardFrame, frame(row(2, 1, 1, true)));
    expect(request).toHaveBeenCalledTimes(1);
    socket.fire(EVENTS.boardFrame, frame(row(1, 0, 2, true)));
    expect(request).toHaveBeenCalledTimes(2);
  });

  it('requests for a removed team and for another contest (board.reset)', () => {
    const { socket, request } = watch(undefined, [row(1, 0)]);
    socket.fire(EVENTS.teamRemoved, { id: 1 });
    socket.fire(EVENTS.boardReset);
    expect(request).toHaveBeenCalledTimes(2);
  });

  it("with a team, only that team's changes and removal count", () => {
    const { socket, request } = watch(7, [row(7, 2)]);
    socket.fire(EVENTS.boardFrame, frame(row(8, 5), row(7, 2, 1, true)));
    socket.fire(EVENTS.teamRemoved, { id: 8 });
    expect(request).not.toHaveBeenCalled();
    socket.fire(EVENTS.boardFrame, frame(row(8, 6), row(7, 3)));
    expect(request).toHaveBeenCalledTimes(1);
    socket.fire(EVENTS.teamRemoved, { id: 7 });
    expect(request).toHaveBeenCalledTimes(2);
  });

  it('requests when the socket comes back after a drop (pushes may be lost), not on a first connect', () => {
    const { socket, request } = watch();
    socket.fire('connect');
    expect(request).not.toHaveBeenCalled();
    socket.fire('disconnect', 'transport close');
    socket.fire('connect');
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('stops listening once detached', () => {
    const { socket, request, detach } = watch();
    detach();
    socket.fire(EVENTS.boardReset);
    socket.fire(EVENTS.boardFrame, frame(row(1, 5)));
    socket.fire(EVENTS.teamRemoved, { id: 1, levels_id: 1 });
    expect(request).not.toHaveBeenCalled();
  });
});
