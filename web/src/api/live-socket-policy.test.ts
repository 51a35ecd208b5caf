import { describe, expect, it } from 'vitest';
import { afterConnectError, afterDisconnect, retryDelayMs } from './live-socket-policy';
import { connectionAfter } from '../stores/connection-state';

describe('live socket policy', () => {
  it('is final only after our own close', () => {
    expect(afterDisconnect('io client disconnect')).toBe('closed');
    expect(afterDisconnect('transport close')).toBe('reconnecting');
    expect(afterDisconnect('ping timeout')).toBe('reconnecting');
    expect(afterDisconnect('transport error')).toBe('reconnecting');
  });

  it('retries a server disconnect without session.ended (a server closing on restart)', () => {
    expect(afterDisconnect('io server disconnect')).toBe('retry');
  });

  it('ends the session only for a handshake refused as unauthorized', () => {
    expect(afterConnectError('unauthorized', false)).toBe('session-ended');
    // The server could not check the session (database down): try again later.
    expect(afterConnectError('unavailable', false)).toBe('retry');
    // Still active: socket.io-client retries by itself (server unreachable, restarting).
    expect(afterConnectError('websocket error', true)).toBe('reconnecting');
    expect(afterConnectError('unauthorized', true)).toBe('reconnecting');
  });

  it('backs off 1 s, 2 s, 4 s... up to 10 s', () => {
    expect([0, 1, 2, 3, 4, 10].map(retryDelayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
    expect(retryDelayMs(-1)).toBe(1_000);
  });

  it('shows "sin conexión" only when nothing will reconnect', () => {
    expect(connectionAfter('closed')).toBe('sin conexión');
    expect(connectionAfter('session-ended')).toBe('sin conexión');
    expect(connectionAfter('reconnecting')).toBe('reconectando');
    expect(connectionAfter('retry')).toBe('reconectando');
  });
});
