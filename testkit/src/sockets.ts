import { io as ioClient, type Socket } from 'socket.io-client';
import type { FastifyInstance } from 'fastify';
import type {} from '../../server/src/modules/agent/index.js';
import {
  AGENT_NAMESPACE,
  SOCKET_PATH,
  boardAckPolicy,
  type AgentClientToServerEvents,
  type AgentConfig,
  type AgentServerToClientEvents,
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

/** An agent's push channel, as the agent opens it. */
export type AgentSocket = Socket<AgentServerToClientEvents, AgentClientToServerEvents>;

/**
 * Opens a real socket.io-client to a server's `/agent` namespace with an agent `key`, and waits until
 * it connects and the first `agent.policy` arrives. Every event it gets is kept in `events` (name and
 * payload), so a test can tell it never got a board frame. Does not reconnect.
 * @throws the handshake's error when the server refuses it (`unauthorized`).
 */
export function connectAgentSocket(
  url: string,
  key: unknown,
): Promise<{ socket: AgentSocket; policy: AgentConfig; events: Array<[string, unknown]> }> {
  const socket: AgentSocket = ioClient(`${url}${AGENT_NAMESPACE}`, {
    path: SOCKET_PATH,
    auth: { key },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  const events: Array<[string, unknown]> = [];
  socket.onAny((event: string, payload: unknown) => events.push([event, payload]));
  return new Promise((resolve, reject) => {
    socket.once('agent.policy', (policy) => resolve({ socket, policy, events }));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

/**
 * Closes the push channel of team `teamId`'s agents on `server` (as a regenerated key does: they do
 * not reconnect); the key keeps working over HTTP. Resolves once the round of policies in progress
 * is sent.
 */
export async function closeAgentChannel(server: { app: FastifyInstance }, teamId: number): Promise<void> {
  await server.app.agentChannel.settled();
  server.app.agentChannel.closeTeam(teamId);
}
