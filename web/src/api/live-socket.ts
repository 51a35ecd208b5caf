import { EVENTS, boardAckPolicy, type BoardFrame } from '@concurso/shared';
import { createLiveBus, type LiveBus } from './live-bus';
import { afterConnectError, afterDisconnect, retryDelayMs } from './live-socket-policy';
import { openLiveSocket, type LiveSocket } from './open-live-socket';
import { endSession, onSessionEnd } from './session-end';

/*
 * The tab's one push-channel socket (docs/design.md section 6), its one provider: it opens the socket,
 * puts the live bus (`live-bus.ts`) on it, and feeds every holder through that bus: the board store
 * (/home, /homeJuez, /proyector), the query cache's sync (`api/queries/catalog-sync.ts`, while the
 * signed-in shell is mounted) and `useRefetchOnBoardChange` (/home's statistics, a team's 'Historial',
 * /bitacora's log; `stores/use-refetch-on-board-change.ts`). Each holder holds a lease; the socket
 * closes a moment after the last lease is released, so moving between screens (or React's StrictMode
 * double effects) reuses the connection instead of reconnecting.
 *
 * The socket's own watch is the bus's first subscriber, like any holder's: `session.ended`, or a
 * reconnect refused as 'unauthorized', ends the tab's session (`session-end.ts`); any other disconnect
 * or refusal by the server is retried (`live-socket-policy.ts`), so a restarted server never leaves a
 * screen offline. And it acknowledges the board's frames (`ackBoardFrames`): the server stops pushing
 * to a socket with `BOARD_PUSH_CREDIT` frames unacknowledged, and both the board store and the
 * catalogue sync (status patches) read frames from this one socket, either of them possibly alone.
 */

/** How long an unused socket stays open for the next screen (ms). */
export const LIVE_SOCKET_LINGER_MS = 5_000;

/** One holder's use of the shared socket. */
export interface LiveSocketLease {
  /** The socket's events and state, each frame decoded once (`live-bus.ts`): what holders subscribe to. */
  bus: LiveBus;
  /** Gives the lease back; the holder must have removed its own listeners first. Idempotent. */
  release: () => void;
}

interface Shared {
  socket: LiveSocket;
  token: string;
  /** The levels the socket follows (`levelsKey`; '' for every level). */
  levels: string;
  holders: number;
  closeTimer: ReturnType<typeof setTimeout> | null;
  /** The pending reconnection of a socket the server disconnected or refused; null when none. */
  retryTimer: ReturnType<typeof setTimeout> | null;
  /** Retries since the last successful connect (for the backoff). */
  retries: number;
  bus: LiveBus;
}

let shared: Shared | null = null;

function close(): void {
  if (!shared) return;
  const closing = shared;
  shared = null;
  if (closing.closeTimer) clearTimeout(closing.closeTimer);
  if (closing.retryTimer) clearTimeout(closing.retryTimer);
  closing.bus.close();
  closing.socket.disconnect();
}

// An ended session's token is revoked: its socket must not linger or retry.
onSessionEnd(() => close());

/** Connects `entry`'s inactive socket again after the backoff, unless it was closed meanwhile. */
function scheduleRetry(entry: Shared): void {
  if (entry.retryTimer) return;
  entry.retryTimer = setTimeout(() => {
    entry.retryTimer = null;
    if (shared !== entry || entry.socket.active) return;
    entry.retries += 1;
    entry.socket.connect();
  }, retryDelayMs(entry.retries));
}

/**
 * The bus's `frame` subscriber that acknowledges the frames with `board.ack` (the push's flow control,
 * shared/src/events.ts): every `BOARD_ACK_EVERY`-th frame, by `boardAckPolicy` (an ack costs
 * the server as much as a frame). Why here and not in the stores: the acks are due whoever holds the
 * socket, the board store (board screens, projector), the catalogue sync (the teams list's ESTATUS),
 * `useRefetchOnBoardChange` (/bitacora) or several at once; one subscriber per socket, subscribed
 * when it is opened, gives that with no coordination between holders. The ack waits for a microtask, so it goes after every subscriber of the
 * same frame ran: "applied" is true when the server reads it. Not sent
 * once the socket is disconnected: socket.io-client would buffer it and send it on the next
 * connection, whose server never sent that `seq`.
 */
function ackBoardFrames(socket: Pick<LiveSocket, 'connected' | 'emit'>): (frame: BoardFrame) => void {
  const ackNow = boardAckPolicy();
  return (frame) => {
    const seq = ackNow(frame[0]);
    if (seq === null) return;
    queueMicrotask(() => {
      if (socket.connected) socket.emit(EVENTS.boardAck, seq);
    });
  };
}

/** A level list as one comparable text: '2', '1,3'; '' for every level (no list). */
const levelsKey = (levels?: readonly number[]): string =>
  levels ? [...new Set(levels)].sort((a, b) => a - b).join(',') : '';

function open(token: string, levels?: readonly number[]): Shared {
  const socket = openLiveSocket(token, levels ? [...levels] : undefined);
  const bus = createLiveBus(socket);
  // The socket's own watch, first on the bus: a frame's acknowledgement waits for every subscriber
  // (a microtask).
  bus.on({
    frame: ackBoardFrames(socket),
    sessionEnded: (payload) => {
      if (shared?.socket === socket) endSession(payload?.reason ?? 'unauthorized', token);
    },
    disconnect: (reason) => {
      if (shared?.socket === socket && afterDisconnect(reason) === 'retry') scheduleRetry(shared);
    },
    connectError: (error) => {
      if (shared?.socket !== socket) return;
      const outcome = afterConnectError(error.message, socket.active);
      if (outcome === 'session-ended') endSession('unauthorized', token);
      else if (outcome === 'retry') scheduleRetry(shared);
    },
    connect: () => {
      if (shared?.socket === socket) shared.retries = 0;
    },
  });
  return {
    socket,
    bus,
    token,
    levels: levelsKey(levels),
    holders: 0,
    closeTimer: null,
    retryTimer: null,
    retries: 0,
  };
}

/**
 * Leases the shared socket authenticated with `token`, opening it when there is none (or when the
 * open one belongs to another session). `levels` (/proyector?nivel=) asks for a socket that
 * joins only those levels' rooms, so the server sends it only their rows: an open socket following
 * other levels is replaced. Without `levels` any open socket of the session serves (a holder that
 * does not read the board's rows of every level, or the screen that opened it).
 */
export function acquireLiveSocket(token: string, levels?: readonly number[]): LiveSocketLease {
  if (shared && (shared.token !== token || (levels && shared.levels !== levelsKey(levels)))) close();
  shared ??= open(token, levels);
  const mine = shared;
  // Inactive with no retry pending: connect the same socket again (other screens' listeners stay on it).
  if (!mine.socket.active && !mine.retryTimer) mine.socket.connect();
  if (mine.closeTimer) {
    clearTimeout(mine.closeTimer);
    mine.closeTimer = null;
  }
  mine.holders += 1;
  let released = false;
  return {
    bus: mine.bus,
    release: () => {
      if (released) return;
      released = true;
      // A socket already replaced (new session, closeLiveSocket) is not ours to count any more.
      if (shared !== mine) return;
      mine.holders -= 1;
      if (mine.holders <= 0) mine.closeTimer = setTimeout(close, LIVE_SOCKET_LINGER_MS);
    },
  };
}

/** Closes the shared socket at once, leases or not (logout: the token is revoked). */
export function closeLiveSocket(): void {
  close();
}
