import type { SocketOutcome } from '../api/live-socket-policy';

/** State of the board's push channel, shown on the board screens (docs/design.md section 6). */
export type ConnectionState = 'conectado' | 'reconectando' | 'sin conexión';

/** The visible text of each connection state. */
export const CONNECTION_LABELS: Record<ConnectionState, string> = {
  conectado: 'Conectado',
  reconectando: 'Reconectando…',
  'sin conexión': 'Sin conexión',
};

/**
 * What a screen shows after its socket lost or failed its connection: 'sin conexión' only when it is
 * closed for good (this tab closed it, or the session ended and the screen is leaving); 'reconectando'
 * while socket.io-client or `live-socket.ts` is connecting it again.
 */
export function connectionAfter(outcome: SocketOutcome): ConnectionState {
  return outcome === 'closed' || outcome === 'session-ended' ? 'sin conexión' : 'reconectando';
}
