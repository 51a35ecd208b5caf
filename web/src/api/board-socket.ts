import { io, type Socket } from 'socket.io-client';
import {
  SOCKET_PATH,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SocketAuth,
} from '@concurso/shared';

/** The typed push-channel socket (docs/design.md section 6): board events and `catalog.changed`. */
export type BoardSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Opens a push-channel socket on the page's own origin, authenticated by the session token. Screens do
 * not call it directly: `live-socket.ts` shares one socket per tab between the board and the catalogues.
 * `levels` limits the rooms followed (default: every level).
 */
export function openBoardSocket(token: string, levels?: number[]): BoardSocket {
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
