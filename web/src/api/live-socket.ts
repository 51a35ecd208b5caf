import { openBoardSocket, type BoardSocket } from './board-socket';

/**
 * The tab's one push-channel socket (DESIGN.md section 6), shared by the live board and the catalogue
 * screens. Each user holds a lease; the socket closes a moment after the last lease is released, so
 * moving between screens (or React's StrictMode double effects) reuses the connection instead of
 * reconnecting.
 */
export type LiveSocket = BoardSocket;

/** How long an unused socket stays open for the next screen (ms). */
export const LIVE_SOCKET_LINGER_MS = 5_000;

/** One holder's use of the shared socket. */
export interface LiveSocketLease {
  socket: LiveSocket;
  /** Gives the lease back; the holder must have removed its own listeners first. Idempotent. */
  release: () => void;
}

interface Shared {
  socket: LiveSocket;
  token: string;
  holders: number;
  closeTimer: ReturnType<typeof setTimeout> | null;
}

let shared: Shared | null = null;

function close(): void {
  if (!shared) return;
  if (shared.closeTimer) clearTimeout(shared.closeTimer);
  shared.socket.disconnect();
  shared = null;
}

/**
 * Leases the shared socket authenticated with `token`, opening it when there is none (or when the
 * open one belongs to another session).
 */
export function acquireLiveSocket(token: string): LiveSocketLease {
  // A socket of another session, or one the server refused for good (`active` false), is not reused.
  if (shared && (shared.token !== token || !shared.socket.active)) close();
  if (!shared) shared = { socket: openBoardSocket(token), token, holders: 0, closeTimer: null };
  const mine = shared;
  if (mine.closeTimer) {
    clearTimeout(mine.closeTimer);
    mine.closeTimer = null;
  }
  mine.holders += 1;
  let released = false;
  return {
    socket: mine.socket,
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
