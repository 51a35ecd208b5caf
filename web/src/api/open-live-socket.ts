import { io, type Socket } from 'socket.io-client';
import {
  SOCKET_PATH,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SocketAuth,
} from '@concurso/shared';

/** The typed push-channel socket (docs/design.md section 6): board events and `catalog.changed`. */
export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Opens a push-channel socket on the page's own origin, authenticated by the session token. Only
 * `live-socket.ts` calls it: it shares one socket per tab, and its bus is the one listener on it.
 * `levels` limits the rooms followed (default: every level).
 */
export function openLiveSocket(token: string, levels?: number[]): LiveSocket {
  const auth: SocketAuth = levels ? { token, levels } : { token };
  return io({
    path: SOCKET_PATH,
    auth,
    // WebSocket first: with several server processes, long-polling would need sticky sessions.
    // Polling stays as a fallback for networks that block WebSocket.
    transports: ['websocket', 'polling'],
    tryAllTransports: true,
  });
}
