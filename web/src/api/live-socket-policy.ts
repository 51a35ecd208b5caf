/**
 * What the tab's live socket does when it loses or fails its connection (docs/design.md section 6: every
 * restart is survived; an ended session goes to the login screen). Pure, so it is tested
 * without a socket.
 *
 * socket.io-client retries by itself after a dropped transport, but not after the server disconnected
 * the socket or refused its handshake (the socket turns inactive). Only a real session end may stay
 * down: the server then sends `session.ended` first, or refuses the next handshake as 'unauthorized'.
 */

/**
 * - `closed`: this tab closed it (logout, last screen left); nothing follows.
 * - `reconnecting`: socket.io-client is retrying by itself.
 * - `retry`: the socket is inactive but the session may hold; `live-socket.ts` connects it again later.
 * - `session-ended`: the server refused the session; the tab's session ends.
 */
export type SocketOutcome = 'closed' | 'reconnecting' | 'retry' | 'session-ended';

/** The handshake refusal of a missing, invalid, expired or revoked token (server/src/realtime/socket.ts). */
const UNAUTHORIZED_REFUSAL = 'unauthorized';

/**
 * After a `disconnect` with socket.io-client's `reason`. A bare 'io server disconnect' (no
 * `session.ended` before it) is retried: an older server closed its sockets that way on shutdown, and
 * if the session really ended the next handshake is refused and says so.
 */
export function afterDisconnect(reason: string): SocketOutcome {
  if (reason === 'io client disconnect') return 'closed';
  if (reason === 'io server disconnect') return 'retry';
  return 'reconnecting';
}

/**
 * After a `connect_error` with the error's `message`, `active` being the socket's state at that moment:
 * still active means socket.io-client retries by itself (the server is unreachable); inactive means the
 * server answered the handshake with a refusal: 'unauthorized' ends the session, anything else (the
 * database was unavailable) is retried.
 */
export function afterConnectError(message: string, active: boolean): SocketOutcome {
  if (active) return 'reconnecting';
  return message === UNAUTHORIZED_REFUSAL ? 'session-ended' : 'retry';
}

/** First wait before connecting an inactive socket again (ms). */
const RETRY_BASE_MS = 1_000;
/** Longest wait between two such retries (ms). */
const RETRY_MAX_MS = 10_000;

/** Wait before the `attempt`-th (0-based) retry of an inactive socket: 1 s, 2 s, 4 s... up to 10 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempt));
}
