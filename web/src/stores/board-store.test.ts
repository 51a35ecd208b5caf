import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BOARD_ACK_EVERY,
  encodeBoardRow,
  type BoardFrame,
  type BoardTeam,
  type TeamAttempts,
} from '@concurso/shared';
import { boardTeam } from '@concurso/shared/test-support/board-team';
import type { TeamAttemptsResponse } from '../api/board-api';
import { fakeOpenLiveSocketModule, type FakeSocket } from '../api/fake-socket.test-support';

interface Deferred {
  resolve: (value: TeamAttemptsResponse) => void;
  reject: (error: unknown) => void;
}

const sockets: FakeSocket[] = [];
const fetches: Deferred[] = [];

vi.mock('../api/open-live-socket', () => fakeOpenLiveSocketModule(sockets));
vi.mock('../api/board-api', () => ({
  fetchTeamAttempts: vi.fn(
    () => new Promise<TeamAttemptsResponse>((resolve, reject) => fetches.push({ resolve, reject })),
  ),
}));

const { useBoardStore } = await import('./board-store');
const { LIVE_SOCKET_LINGER_MS, closeLiveSocket } = await import('../api/live-socket');
const { useSessionStore } = await import('./session-store');

/**
 * The socket's listeners left after the board stops, until the socket closes: the live bus's one per
 * event (`api/live-bus.ts`), the only code listening to the socket (its acknowledging watch included).
 */
const BOARD_EVENTS = { 'board.frame': 1, 'team.removed': 1, 'board.reset': 1 };

function team(id: number, version: number, extra: Partial<BoardTeam> = {}): BoardTeam {
  return boardTeam(id, { number_attempts: version, agent_online: true, version, ...extra });
}

let frameSeq = 0;
/** A `board.frame` carrying `teams` (board-frame.ts), with the next seq. */
function frame(...teams: BoardTeam[]): BoardFrame {
  return [++frameSeq, 1763830000000 + frameSeq, teams.map(encodeBoardRow)];
}

function answer(basico: BoardTeam[], contest: TeamAttempts['contest'] = null): TeamAttemptsResponse {
  return { success: true, message: '', contest, basico, intermedio: [], avanzado: [] };
}

/** Lets awaited promises inside the store settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

let storage: Map<string, string>;

beforeEach(() => {
  sockets.length = 0;
  fetches.length = 0;
  storage = new Map([['token', 'jwt']]);
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => storage.get(key) ?? null,
    removeItem: (key: string) => void storage.delete(key),
  });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  useSessionStore.setState({ user: null, ended: false });
});

afterEach(() => {
  useBoardStore.getState().stop();
  // The shared socket lingers after its last user; each test starts with a fresh one.
  closeLiveSocket();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('board store', () => {
  it('loads the snapshot at start and again on every connect', async () => {
    useBoardStore.getState().start();
    expect(useBoardStore.getState().connection).toBe('reconectando');
    expect(fetches).toHaveLength(1);

    fetches[0]?.resolve(
      answer([team(1, 1)], {
        id: 3,
        calendar: '2026B',
        date: '2026-08-15',
        active: true,
        max_attempts: null,
        observe_processes: true,
        allowed_sites: [],
        network_version: 0,
      }),
    );
    await settle();
    expect(useBoardStore.getState().loaded).toBe(true);
    expect(useBoardStore.getState().teams[1]?.number_attempts).toBe(1);
    expect(useBoardStore.getState().contest?.calendar).toBe('2026B');

    sockets[0]?.fire('connect');
    expect(useBoardStore.getState().connection).toBe('conectado');
    expect(fetches).toHaveLength(2);

    // A reconnect refetches, and the new snapshot replaces the board (team 1 was deleted meanwhile).
    sockets[0]?.fire('disconnect', 'transport close');
    expect(useBoardStore.getState().connection).toBe('reconectando');
    sockets[0]?.fire('connect');
    expect(fetches).toHaveLength(3);
    fetches[2]?.resolve(answer([team(2, 1)]));
    await settle();
    expect(useBoardStore.getState().teams[1]).toBeUndefined();
    expect(useBoardStore.getState().teams[2]).toBeDefined();
  });

  it('replays events received while the snapshot was in flight', async () => {
    useBoardStore.getState().start();
    sockets[0]?.fire('connect');
    sockets[0]?.fire('board.frame', frame(team(1, 5)));
    // Shown at once, before the snapshot arrives.
    expect(useBoardStore.getState().teams[1]?.version).toBe(5);

    // The snapshot was read before the event: version 4. The event must win.
    fetches[1]?.resolve(answer([team(1, 4), team(2, 1)]));
    await settle();
    expect(useBoardStore.getState().teams[1]?.version).toBe(5);
    expect(useBoardStore.getState().teams[2]).toBeDefined();
  });

  it('ignores the answer of a snapshot request superseded by a newer one', async () => {
    useBoardStore.getState().start();
    sockets[0]?.fire('connect');
    fetches[1]?.resolve(answer([team(2, 2)]));
    await settle();
    fetches[0]?.resolve(answer([team(1, 1)]));
    await settle();
    expect(Object.keys(useBoardStore.getState().teams)).toEqual(['2']);
  });

  it('applies every row of a board.frame in one store update, with the version rule', async () => {
    useBoardStore.getState().start();
    fetches[0]?.resolve(answer([team(1, 3), team(2, 1)]));
    await settle();
    const updates = vi.fn();
    const unsubscribe = useBoardStore.subscribe(updates);
    sockets[0]?.fire(
      'board.frame',
      frame(
        team(1, 2, { number_attempts: 99 }),
        team(2, 2, { number_attempts: 5, status_team: { id: 2, status: 'Descalificado' } }),
        team(3, 1, { number_attempts: 1, agent_online: false, levels_id: 2 }),
      ),
    );
    unsubscribe();
    expect(updates).toHaveBeenCalledTimes(1);
    const teams = useBoardStore.getState().teams;
    expect(teams[1]?.version).toBe(3); // older row dropped
    expect(teams[2]).toEqual(
      team(2, 2, { number_attempts: 5, status_team: { id: 2, status: 'Descalificado' } }),
    );
    expect(teams[3]).toEqual(team(3, 1, { number_attempts: 1, agent_online: false, levels_id: 2 }));

    // A frame whose rows are all older than the held ones changes nothing: no store update.
    const before = useBoardStore.getState();
    sockets[0]?.fire('board.frame', frame(team(1, 1)));
    expect(useBoardStore.getState()).toBe(before);
  });

  it('has the frames acknowledged (every BOARD_ACK_EVERY-th) once the board holds their rows', async () => {
    useBoardStore.getState().start();
    const socket = sockets[0];
    if (!socket) throw new Error('no socket');
    socket.connected = true;
    socket.fire('connect');
    fetches[1]?.resolve(answer([team(1, 1)]));
    await settle();
    const heldAtAck: Array<number | undefined> = [];
    socket.emit.mockImplementation(() => {
      heldAtAck.push(useBoardStore.getState().teams[1]?.version);
      return true;
    });

    const frames = Array.from({ length: BOARD_ACK_EVERY }, (_, i) => frame(team(1, 2 + i)));
    for (const sent of frames) {
      socket.fire('board.frame', sent);
      await settle();
    }
    expect(socket.emit.mock.calls).toEqual([['board.ack', frames.at(-1)![0]]]);
    // The ack went out once the store held the acknowledged frame's rows.
    expect(heldAtAck).toEqual([1 + BOARD_ACK_EVERY]);
  });

  it('applies team.removed and refetches on board.reset', async () => {
    useBoardStore.getState().start();
    fetches[0]?.resolve(answer([team(1, 1), team(2, 1)]));
    await settle();
    sockets[0]?.fire('team.removed', { id: 1, levels_id: 1 });
    expect(useBoardStore.getState().teams[1]).toBeUndefined();

    sockets[0]?.fire('board.reset');
    expect(fetches).toHaveLength(2);
  });

  it('shows "reconectando" while retrying, a refused handshake included, and connects again by itself', () => {
    vi.useFakeTimers();
    try {
      useBoardStore.getState().start();
      const socket = sockets[0];
      if (!socket) throw new Error('no socket');
      socket.fire('connect_error', new Error('xhr poll error'));
      expect(useBoardStore.getState().connection).toBe('reconectando');
      // The server could not check the session (its database was down): not an ended session.
      socket.active = false;
      socket.fire('connect_error', new Error('unavailable'));
      expect(useBoardStore.getState().connection).toBe('reconectando');
      vi.advanceTimersByTime(1_000);
      expect(socket.connect).toHaveBeenCalledTimes(1);
      expect(useSessionStore.getState().ended).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reconnects after a server disconnect without session.ended (a server closing on restart)', async () => {
    vi.useFakeTimers();
    try {
      useBoardStore.getState().start();
      const socket = sockets[0];
      if (!socket) throw new Error('no socket');
      socket.fire('connect');
      socket.active = false;
      socket.fire('disconnect', 'io server disconnect');
      expect(useBoardStore.getState().connection).toBe('reconectando');
      vi.advanceTimersByTime(1_000);
      expect(socket.connect).toHaveBeenCalledTimes(1);
      // The same socket connects again: the board refetches its snapshot.
      socket.connected = true;
      socket.fire('connect');
      expect(useBoardStore.getState().connection).toBe('conectado');
      expect(fetches).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ['session.ended', (socket: FakeSocket) => socket.fire('session.ended', { reason: 'logout' })],
    [
      'a reconnect refused as unauthorized',
      (socket: FakeSocket) => {
        socket.active = false;
        socket.fire('connect_error', new Error('unauthorized'));
      },
    ],
  ])('ends the session on %s: empty board, socket closed, token gone, login notice', async (_, end) => {
    useSessionStore.setState({
      user: { id: 2, name: 'Juez', username: 'juez', types_users_id: 2, bool: true },
    });
    useBoardStore.getState().start();
    fetches[0]?.resolve(answer([team(1, 1)]));
    await settle();
    const socket = sockets[0];
    if (!socket) throw new Error('no socket');

    end(socket);

    expect(socket.disconnect).toHaveBeenCalled();
    expect(useBoardStore.getState().teams).toEqual({});
    expect(useBoardStore.getState().connection).toBe('sin conexión');
    expect(storage.has('token')).toBe(false);
    expect(useSessionStore.getState()).toMatchObject({ user: null, ended: true });
    // No retry of a socket whose session ended.
    expect(socket.connect).not.toHaveBeenCalled();
  });

  it('keeps the board and reports the error when the snapshot fails', async () => {
    useBoardStore.getState().start();
    fetches[0]?.resolve(answer([team(1, 1)]));
    await settle();
    useBoardStore
      .getState()
      .refresh()
      .catch(() => undefined);
    fetches[1]?.reject(new Error('boom'));
    await settle();
    expect(useBoardStore.getState().error).toBe('Algo salió mal en el servidor.');
    expect(useBoardStore.getState().teams[1]).toBeDefined();
  });

  it('disconnects and empties the board on stop', async () => {
    useBoardStore.getState().start();
    fetches[0]?.resolve(answer([team(1, 1)]));
    await settle();
    const socket = sockets[0];
    vi.useFakeTimers();
    try {
      useBoardStore.getState().stop();
      // The board's subscription goes at once (a frame now changes nothing); the shared socket closes
      // after the linger (no other user), with every listener of its own.
      for (const [event, left] of Object.entries(BOARD_EVENTS)) {
        expect(socket?.handlers.get(event)?.size ?? 0).toBe(left);
      }
      socket?.fire('board.frame', frame(team(8, 1)));
      expect(useBoardStore.getState().teams).toEqual({});
      expect(socket?.disconnect).not.toHaveBeenCalled();
      vi.advanceTimersByTime(LIVE_SOCKET_LINGER_MS);
      expect(socket?.disconnect).toHaveBeenCalled();
      for (const event of Object.keys(BOARD_EVENTS)) expect(socket?.handlers.get(event)?.size ?? 0).toBe(0);
    } finally {
      vi.useRealTimers();
    }
    expect(useBoardStore.getState().teams).toEqual({});
    expect(useBoardStore.getState().connection).toBe('sin conexión');
    // A late event of the closed socket changes nothing.
    socket?.fire('board.frame', frame(team(9, 1)));
    expect(useBoardStore.getState().teams).toEqual({});
  });

  it('reuses a socket another screen left open and shows it connected at once', async () => {
    useBoardStore.getState().start();
    const socket = sockets[0];
    if (!socket) throw new Error('no socket');
    socket.connected = true;
    useBoardStore.getState().stop();
    useBoardStore.getState().start();
    expect(sockets).toHaveLength(1);
    expect(useBoardStore.getState().connection).toBe('conectado');
    expect(socket.disconnect).not.toHaveBeenCalled();
    // Only the second start's listeners are attached.
    socket.fire('board.frame', frame(team(1, 1)));
    expect(useBoardStore.getState().teams[1]).toBeDefined();
    // The live bus's one listener, whatever the number of subscribers (the acknowledging watch is one).
    expect(socket.handlers.get('board.frame')?.size).toBe(1);
  });

  it('does not open a socket without a token', () => {
    vi.stubGlobal('localStorage', { getItem: () => null });
    useBoardStore.getState().start();
    expect(sockets).toHaveLength(0);
    expect(useBoardStore.getState().connection).toBe('sin conexión');
  });
});
