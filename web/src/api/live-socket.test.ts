import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { BOARD_ACK_EVERY, type BoardFrame } from '@concurso/shared';
import type { SessionEndListener } from './session-end';
import { fakeOpenLiveSocketModule, type FakeSocket } from './fake-socket.test-support';

const sockets: FakeSocket[] = [];
vi.mock('./open-live-socket', () => fakeOpenLiveSocketModule(sockets));

const { acquireLiveSocket, closeLiveSocket } = await import('./live-socket');
const { onSessionEnd } = await import('./session-end');

let ended: Mock<SessionEndListener>;
let offEnded: () => void;

beforeEach(() => {
  sockets.length = 0;
  vi.useFakeTimers();
  vi.stubGlobal('localStorage', { getItem: () => 'jwt', removeItem: () => undefined });
  ended = vi.fn<SessionEndListener>();
  offEnded = onSessionEnd(ended);
});

afterEach(() => {
  offEnded();
  closeLiveSocket();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('live socket', () => {
  it('opens a socket following only the levels asked for, and replaces one that follows others', async () => {
    const { openLiveSocket } = await import('./open-live-socket');
    const all = acquireLiveSocket('jwt');
    // A holder that does not ask for levels shares whatever is open.
    const any = acquireLiveSocket('jwt');
    expect(any.bus).toBe(all.bus);
    const one = acquireLiveSocket('jwt', [2]);
    expect(sockets).toHaveLength(2);
    expect(sockets[0]!.disconnect).toHaveBeenCalled();
    expect(vi.mocked(openLiveSocket).mock.calls.at(-1)).toEqual(['jwt', [2]]);
    // The same levels again: the same socket.
    expect(acquireLiveSocket('jwt', [2]).bus).toBe(one.bus);
    expect(sockets).toHaveLength(2);
  });

  it('connects the same socket again after a server disconnect, backing off while refused', () => {
    const lease = acquireLiveSocket('jwt');
    const socket = sockets[0]!;
    socket.active = false;
    socket.fire('disconnect', 'io server disconnect');
    vi.advanceTimersByTime(999);
    expect(socket.connect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(socket.connect).toHaveBeenCalledTimes(1);

    // The database was down when it tried: the next try waits twice as long.
    socket.refuse('unavailable');
    vi.advanceTimersByTime(1_999);
    expect(socket.connect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(socket.connect).toHaveBeenCalledTimes(2);

    // A good connect resets the backoff.
    socket.fire('connect');
    socket.refuse('unavailable');
    vi.advanceTimersByTime(1_000);
    expect(socket.connect).toHaveBeenCalledTimes(3);
    expect(sockets).toHaveLength(1);
    expect(ended).not.toHaveBeenCalled();
    lease.release();
  });

  it('ends the session on session.ended or an unauthorized refusal, and closes without retrying', () => {
    acquireLiveSocket('jwt');
    sockets[0]!.fire('session.ended', { reason: 'password' });
    expect(ended).toHaveBeenCalledWith('password');
    expect(sockets[0]!.disconnect).toHaveBeenCalled();

    acquireLiveSocket('jwt');
    const second = sockets[1]!;
    second.refuse('unauthorized');
    expect(ended).toHaveBeenLastCalledWith('unauthorized');
    vi.advanceTimersByTime(60_000);
    expect(second.connect).not.toHaveBeenCalled();
  });

  it('does not retry a socket this tab closed, nor listen to a replaced one', () => {
    acquireLiveSocket('jwt');
    const first = sockets[0]!;
    first.active = false;
    first.fire('disconnect', 'io server disconnect');
    closeLiveSocket();
    vi.advanceTimersByTime(10_000);
    expect(first.connect).not.toHaveBeenCalled();
    // Its listeners are gone: a late refusal of the closed socket ends nothing.
    first.refuse('unauthorized');
    expect(ended).not.toHaveBeenCalled();

    acquireLiveSocket('jwt');
    acquireLiveSocket('otro-jwt');
    expect(sockets).toHaveLength(3);
    sockets[1]!.fire('session.ended', { reason: 'logout' });
    expect(ended).not.toHaveBeenCalled();
  });

  it('acknowledges every BOARD_ACK_EVERY-th board.frame with its seq, after every holder applied it', async () => {
    // Two holders on the one socket (the board store and the catalogue sync), each reading frames.
    const board = acquireLiveSocket('jwt');
    const lists = acquireLiveSocket('jwt');
    const socket = sockets[0]!;
    socket.connected = true;
    const ackedWhenApplied: number[] = [];
    const apply = () => ackedWhenApplied.push(socket.emit.mock.calls.length);
    socket.on('board.frame', () => apply());
    socket.on('board.frame', () => apply());
    const frame = (seq: number): BoardFrame => [
      seq,
      1763830000123.4 + seq,
      [[5, seq, 1, 3, 1, 1, 'Equipo 5']],
    ];

    for (let seq = 1; seq <= BOARD_ACK_EVERY; seq++) socket.fire('board.frame', frame(seq));
    await Promise.resolve();
    // One ack, of the last frame (it covers the ones before it), once every listener had run.
    expect(socket.emit.mock.calls).toEqual([['board.ack', BOARD_ACK_EVERY]]);
    expect(ackedWhenApplied.every((emitted) => emitted === 0)).toBe(true);

    // One holder left: frames are still acknowledged (the catalogue screens patch ESTATUS from them).
    board.release();
    for (let seq = BOARD_ACK_EVERY + 1; seq <= 2 * BOARD_ACK_EVERY; seq++)
      socket.fire('board.frame', frame(seq));
    await Promise.resolve();
    expect(socket.emit).toHaveBeenLastCalledWith('board.ack', 2 * BOARD_ACK_EVERY);
    expect(socket.emit).toHaveBeenCalledTimes(2);

    // A frame whose socket dropped before the ack: nothing is queued for the next connection.
    for (let seq = 2 * BOARD_ACK_EVERY + 1; seq < 3 * BOARD_ACK_EVERY; seq++)
      socket.fire('board.frame', frame(seq));
    socket.fire('board.frame', frame(3 * BOARD_ACK_EVERY));
    socket.connected = false;
    await Promise.resolve();
    expect(socket.emit).toHaveBeenCalledTimes(2);
    lists.release();
  });

  it('connects a leased socket left inactive when another screen acquires it', () => {
    const board = acquireLiveSocket('jwt');
    const socket = sockets[0]!;
    socket.active = false; // refused, its retry already spent
    const lists = acquireLiveSocket('jwt');
    expect(lists.bus).toBe(board.bus);
    expect(socket.connect).toHaveBeenCalledTimes(1);
  });
});
