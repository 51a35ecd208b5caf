import * as ws from 'ws';
import type { ServerToClientEvents } from '@concurso/shared';
import type { BoardSocket } from './socket.js';

/**
 * Writing one push frame to thousands of sockets cheaply (measured in bench/BENCHMARKS.md).
 *
 * A Socket.IO broadcast already encodes its WebSocket frame once (socket.io-adapter's
 * `wsPreEncodedFrame`), but still walks each socket through Engine.IO's packet machinery (a packet
 * object, `packetCreate`/`flush`/`drain` events, a write callback and a corked two-part write): about
 * 15 µs of server CPU per socket and frame, most of the push's cost. Here the frame's bytes, header
 * and payload in one buffer, are handed to each socket's WebSocket sender directly (`ws`'s
 * `Sender.sendFrame`, the very call Engine.IO makes for a pre-encoded frame): one write per socket.
 *
 * It is only done when nothing can be reordered or mangled: the Engine.IO socket is open on the
 * WebSocket transport (not polling, not upgrading), without per-message deflate, with no packet
 * waiting in Engine.IO's buffer and none in `ws`'s queue. Otherwise the frame goes the ordinary way
 * (`socket.emit`), so the result on the wire is the same message either way.
 */

/** The Engine.IO/`ws` internals the direct path reads (typed here, checked at runtime). */
interface WsSender {
  sendFrame?: (list: Buffer[], cb?: (err?: Error) => void) => void;
  _queue?: unknown[];
}
interface EngineTransport {
  name: string;
  perMessageDeflate?: unknown;
  socket?: { readyState: number; _sender?: WsSender };
}
interface EngineSocket {
  readyState: string;
  upgrading: boolean;
  writeBuffer: unknown[];
  transport: EngineTransport;
}

/** `ws`'s frame builder (exported by `ws` at runtime, not declared by @types/ws). */
const { Sender } = ws as unknown as {
  Sender: {
    frame(
      data: Buffer,
      options: { readOnly: boolean; mask: boolean; rsv1: boolean; opcode: number; fin: boolean },
    ): Buffer[];
  };
};

/** `WebSocket.OPEN`: the connection is open and ready to communicate. */
const WS_OPEN = 1;

/** An event encoded once for every socket it goes to. */
export interface EncodedEvent<E extends keyof ServerToClientEvents> {
  event: E;
  payload: Parameters<ServerToClientEvents[E]>[0];
  /** The whole WebSocket text frame (header + `42["<event>",<payload>]`), unmasked. */
  bytes: Buffer;
}

/**
 * Encodes `event` with `payload` as Socket.IO would (Engine.IO message `4`, Socket.IO EVENT `2` in
 * the main namespace, JSON) and frames it as one unmasked WebSocket text frame.
 */
export function encodeEvent<E extends keyof ServerToClientEvents>(
  event: E,
  payload: Parameters<ServerToClientEvents[E]>[0],
): EncodedEvent<E> {
  const data = Buffer.from(`42${JSON.stringify([event, payload])}`);
  const parts = Sender.frame(data, {
    readOnly: false,
    mask: false,
    rsv1: false,
    opcode: 1,
    fin: true,
  });
  return { event, payload, bytes: Buffer.concat(parts) };
}

/**
 * Sends an encoded event to one socket: straight to its WebSocket when that is safe (see above),
 * otherwise with `socket.emit`. Errors of a direct write end up where Engine.IO's own do (the
 * socket's `error`/`close`), so a broken connection is cleaned up the usual way.
 */
export function writeEvent<E extends keyof ServerToClientEvents>(
  socket: BoardSocket,
  encoded: EncodedEvent<E>,
): void {
  const conn = socket.conn as unknown as EngineSocket;
  const transport = conn.transport;
  const sender = transport.socket?._sender;
  if (
    conn.readyState === 'open' &&
    !conn.upgrading &&
    conn.writeBuffer.length === 0 &&
    transport.name === 'websocket' &&
    !transport.perMessageDeflate &&
    transport.socket?.readyState === WS_OPEN &&
    typeof sender?.sendFrame === 'function' &&
    sender._queue?.length === 0
  ) {
    sender.sendFrame([encoded.bytes]);
    return;
  }
  (socket.emit as (event: E, payload: EncodedEvent<E>['payload']) => boolean)(encoded.event, encoded.payload);
}
