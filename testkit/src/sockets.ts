import { io as ioClient, type Socket } from 'socket.io-client';
import {
  SOCKET_PATH,
  boardAckPolicy,
  decodeBoardFrame,
  type BoardTeam,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@concurso/shared';

/** A board screen's push channel, as the web opens it (socket.io-client, websocket transport). */
export type BoardSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Opens a real socket.io-client to a server (`url`, in process or spawned) as `token`, in the rooms of
 * `levels` (default: every level), and waits until it connects. Like the web, it acknowledges the
 * `board.frame`s (`board.ack`, `boardAckPolicy`), so the server's flow control keeps sending it frames.
 * @throws the handshake's error when the server refuses it (e.g. `unauthorized`).
 */
export function connectSocket(url: string, token: string, levels?: number[]): Promise<BoardSocket> {
  const socket: BoardSocket = ioClient(url, {
    path: SOCKET_PATH,
    auth: { token, ...(levels ? { levels } : {}) },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  const ackNow = boardAckPolicy();
  socket.on('board.frame', ([seq]) => {
    const ack = ackNow(seq);
    if (ack !== null) socket.emit('board.ack', ack);
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

/** Resolves with the next `event` on `socket`, or rejects after `timeoutMs`. */
export function nextEvent<E extends keyof ServerToClientEvents>(
  socket: BoardSocket,
  event: E,
  timeoutMs = 3_000,
): Promise<Parameters<ServerToClientEvents[E]>[0]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, handler as never);
      reject(new Error(`no '${event}' within ${timeoutMs} ms`));
    }, timeoutMs);
    const handler = (payload: unknown) => {
      clearTimeout(timer);
      resolve(payload as Parameters<ServerToClientEvents[E]>[0]);
    };
    socket.once(event, handler as never);
  });
}

/** Collects every `event` received on `socket` into an array. */
export function collect<E extends keyof ServerToClientEvents>(socket: BoardSocket, event: E) {
  const seen: Array<Parameters<ServerToClientEvents[E]>[0]> = [];
  socket.on(event, ((payload: Parameters<ServerToClientEvents[E]>[0]) => seen.push(payload)) as never);
  return seen;
}

/**
 * Resolves with the first board row pushed to `socket` (in a `board.frame`, decoded) that `match`
 * accepts (default: any), or rejects after `timeoutMs`.
 */
export function nextRow(
  socket: BoardSocket,
  match: (row: BoardTeam) => boolean = () => true,
  timeoutMs = 3_000,
): Promise<BoardTeam> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off('board.frame', handler);
      reject(new Error(`no matching board row within ${timeoutMs} ms`));
    }, timeoutMs);
    const handler: ServerToClientEvents['board.frame'] = (frame) => {
      const row = decodeBoardFrame(frame).teams.find(match);
      if (!row) return;
      clearTimeout(timer);
      socket.off('board.frame', handler);
      resolve(row);
    };
    socket.on('board.frame', handler);
  });
}

/** Resolves with the rows of the next `board.frame` on `socket`, or rejects after `timeoutMs`. */
export async function nextFrameRows(socket: BoardSocket, timeoutMs = 3_000): Promise<BoardTeam[]> {
  return decodeBoardFrame(await nextEvent(socket, 'board.frame', timeoutMs)).teams;
}

/** Collects every board row pushed to `socket` (decoded from each `board.frame`) into an array. */
export function collectRows(socket: BoardSocket): BoardTeam[] {
  const seen: BoardTeam[] = [];
  socket.on('board.frame', (frame) => seen.push(...decodeBoardFrame(frame).teams));
  return seen;
}
