import { describe, expect, it, vi } from 'vitest';
import { EVENTS, encodeBoardRow, type BoardFrame, type BoardTeam } from '@concurso/shared';
import { FakeSocket } from './fake-socket.test-support';
import { createLiveBus, type BusSocket } from './live-bus';

const row = (id: number): BoardTeam => ({
  id,
  name: `Equipo ${id}`,
  levels_id: 1,
  number_attempts: 1,
  status_team: { id: 1, status: 'Activo' },
  agent_online: true,
  agent_alert: null,
  version: 3,
});
const frame = (...rows: BoardTeam[]): BoardFrame => [1, 0, rows.map(encodeBoardRow)];
// The fake plays socket.io's on/off with untyped event names.
const busOf = (socket: FakeSocket) => createLiveBus(socket as unknown as BusSocket);

describe('the live bus (one receiver of the socket, each frame decoded once)', () => {
  it('hands every subscriber the same decoded rows of a frame, through one listener on the socket', () => {
    const socket = new FakeSocket(true);
    const bus = busOf(socket);
    const board = vi.fn();
    const teamsList = vi.fn();
    const logs = vi.fn();
    bus.on({ teams: board });
    bus.on({ teams: teamsList });
    bus.on({ teams: logs, boardReset: vi.fn() });
    expect(socket.handlers.get(EVENTS.boardFrame)?.size).toBe(1);

    socket.fire(EVENTS.boardFrame, frame(row(1), row(2)));
    expect(board).toHaveBeenCalledTimes(1);
    const rows = board.mock.calls[0]![0] as BoardTeam[];
    expect(rows).toEqual([row(1), row(2)]);
    // Decoded once: the very same array reached the three subscribers.
    expect(teamsList.mock.calls[0]![0]).toBe(rows);
    expect(logs.mock.calls[0]![0]).toBe(rows);
  });

  it("passes on the socket's other events, and stops telling a subscriber once it unsubscribes", () => {
    const socket = new FakeSocket(true);
    const bus = busOf(socket);
    const seen: string[] = [];
    const off = bus.on({
      teamRemoved: (payload) => seen.push(`removed ${payload.id}`),
      boardReset: () => seen.push('reset'),
      catalogChanged: (payload) => seen.push(`changed ${payload.catalog}`),
      sessionEnded: (payload) => seen.push(`ended ${payload.reason}`),
      frame: (frame) => seen.push(`frame ${frame[0]}`),
      connect: () => seen.push('connect'),
      disconnect: (reason) => seen.push(`disconnect ${reason}`),
      connectError: (error) => seen.push(`error ${error.message}`),
    });
    socket.fire(EVENTS.teamRemoved, { id: 4, levels_id: 1 });
    socket.fire(EVENTS.boardReset);
    socket.fire(EVENTS.catalogChanged, { catalog: 'schools' });
    socket.fire(EVENTS.sessionEnded, { reason: 'password' });
    socket.fire(EVENTS.boardFrame, [9, 0, []]);
    socket.fire('connect');
    socket.fire('disconnect', 'transport close');
    socket.fire('connect_error', new Error('unauthorized'));
    off();
    socket.fire(EVENTS.boardReset);
    expect(seen).toEqual([
      'removed 4',
      'reset',
      'changed schools',
      'ended password',
      'frame 9',
      'connect',
      'disconnect transport close',
      'error unauthorized',
    ]);
  });

  it("tells the socket's state, and takes its listeners off the socket when closed", () => {
    const socket = new FakeSocket(true);
    const bus = busOf(socket);
    expect(bus.status()).toEqual({ connected: true, active: true });
    socket.refuse('unavailable');
    expect(bus.status()).toEqual({ connected: true, active: false });
    expect(socket.listenerCount()).toBe(8);
    bus.close();
    expect(socket.listenerCount()).toBe(0);
  });
});
