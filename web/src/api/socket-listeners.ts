import type { ServerToClientEvents } from '@concurso/shared';
import type { LiveSocket } from './live-socket';

/** What a holder of the live socket listens to: the server's events and the socket's own. */
export type LiveSocketListeners = Partial<
  ServerToClientEvents & {
    connect: () => void;
    disconnect: (reason: string) => void;
    connect_error: (error: Error) => void;
  }
>;

/** The part of the socket {@link listenTo} uses (tests pass a fake). */
export type ListenableSocket = Pick<LiveSocket, 'on' | 'off'>;

/**
 * Attaches `listeners` to the shared socket and answers the function that removes exactly them (never
 * another holder's): the board store, the query cache's sync, `useRefetchOnBoardChange` (the
 * statistics, /bitacora, a team's 'Historial') and the socket's own session watch each attach theirs
 * this way.
 */
export function listenTo(socket: ListenableSocket, listeners: LiveSocketListeners): () => void {
  // socket.io types `on`/`off` per event name; the map above keeps each listener typed by its event.
  const untyped = socket as unknown as {
    on: (event: string, listener: unknown) => void;
    off: (event: string, listener: unknown) => void;
  };
  const entries = Object.entries(listeners);
  for (const [event, listener] of entries) untyped.on(event, listener);
  return () => {
    for (const [event, listener] of entries) untyped.off(event, listener);
  };
}
