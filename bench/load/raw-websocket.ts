/**
 * A minimal WebSocket client (RFC 6455) straight on a TCP socket, for the load tester's lean screens
 * (the tester must never be the bottleneck). The `ws` library costs a Writable stream pass,
 * an event emission and several Buffers per message; with thousands of screens each getting several
 * frames a second that is most of the tester's CPU. This client reads the TCP socket with `onread`
 * into one buffer shared by every socket of the process (no Buffer allocated and no stream `data` event
 * per read: the socket hands the bytes straight to the parser), parses frames there and writes prebuilt
 * frames as they are.
 *
 * Enough of the protocol for a loopback test client: the HTTP/1.1 upgrade (status 101 checked, the
 * accept key is not), text/binary messages, fragmented messages, ping (answered with pong), close
 * (answered, then the socket ends). No extensions (no permessage-deflate: the lean screens use `ws`
 * when `--client-deflate` asks for it). Frames it sends are masked with a zero key (RFC 6455 requires
 * a mask from clients; its value only matters against proxies, and a zero key leaves the payload as is).
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';

/** What the owner hears from a socket. */
export interface RawWebSocketHandlers {
  /** The upgrade succeeded. */
  onOpen(): void;
  /**
   * A whole message (text or binary). `data` may be a view into a larger buffer that is reused:
   * copy it to keep it past the call.
   */
  onMessage(data: Buffer): void;
  /** The socket is gone (closed by either side, failed, or never opened); called once. */
  onClose(): void;
}

const OP_CONTINUATION = 0x0;
const OP_CLOSE = 0x8;
const OP_PING = 0x9;
const OP_PONG = 0xa;
const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');

/**
 * The one read buffer of every socket of the process (bytes): a read's bytes are parsed before the next
 * read of any socket, so they can share it; what is left of a partial frame is copied out. 64 KiB holds
 * a frame of several hundred rows in one read; a larger one comes over several reads.
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

/** A client frame of `payload` with opcode `opcode` (FIN set), masked with a zero key. */
export function clientFrame(payload: Buffer, opcode = 0x1): Buffer {
  const length = payload.length;
  const lengthBytes = length < 126 ? 0 : length < 65_536 ? 2 : 8;
  const frame = Buffer.alloc(2 + lengthBytes + 4 + length);
  frame[0] = 0x80 | opcode;
  if (lengthBytes === 0) frame[1] = 0x80 | length;
  else if (lengthBytes === 2) {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 0x80 | 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  // Bytes 2 + lengthBytes .. +4 are the zero masking key (Buffer.alloc zero-fills).
  payload.copy(frame, 2 + lengthBytes + 4);
  return frame;
}

/** One client connection. */
export class RawWebSocket {
  private readonly socket: net.Socket;
  private state: 'connecting' | 'open' | 'closed' = 'connecting';
  private pending: Buffer | null = null;
  private fragments: Buffer[] | null = null;

  /** Connects to `url` (`ws://host:port/path?query`). */
  constructor(
    url: string,
    private readonly handlers: RawWebSocketHandlers,
  ) {
    const { hostname, port, pathname, search } = new URL(url);
    const host = hostname.replace(/^\[|\]$/g, '');
    this.socket = net.connect({
      host,
      port: Number(port) || 80,
      onread: {
        buffer: READ_BUFFER,
        callback: (bytes) => {
          this.onData(READ_BUFFER.subarray(0, bytes));
          return true; // keep reading (false would pause the socket)
        },
      },
    });
    this.socket.setNoDelay(true);
    this.socket.on('connect', () => {
      this.socket.write(
        `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\n` +
          `Connection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n` +
          'Sec-WebSocket-Version: 13\r\n\r\n',
      );
    });
    this.socket.on('error', () => undefined);
    this.socket.on('close', () => {
      this.state = 'closed';
      this.handlers.onClose();
    });
  }

  /** Whether the upgrade succeeded and the socket is still open. */
  get open(): boolean {
    return this.state === 'open';
  }

  /** Sends a text message. */
  send(text: string): void {
    if (this.state === 'open') this.socket.write(clientFrame(Buffer.from(text, 'utf8')));
  }

  /** Writes a complete client frame built by `clientFrame` (the same Buffer may go to many sockets). */
  sendFrame(frame: Buffer): void {
    if (this.state === 'open') this.socket.write(frame);
  }

  /** Ends the connection at once (no close handshake). */
  terminate(): void {
    this.socket.destroy();
  }

  /** Parses a read's bytes: `chunk` is a view into `READ_BUFFER`, valid only during this call. */
  private onData(chunk: Buffer): void {
    let buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    if (this.state === 'connecting') {
      const end = buf.indexOf(HEADER_END);
      if (end < 0) {
        this.pending = Buffer.from(buf);
        return;
      }
      const status = buf.toString('latin1', 0, buf.indexOf(0x0d));
      if (!/^HTTP\/1\.1 101\b/.test(status)) {
        this.terminate();
        return;
      }
      this.state = 'open';
      this.handlers.onOpen();
      buf = buf.subarray(end + HEADER_END.length);
    }
    let at = 0;
    while (this.state === 'open' && buf.length - at >= 2) {
      const b0 = buf[at]!;
      const b1 = buf[at + 1]!;
      let length = b1 & 0x7f;
      let header = 2;
      if (length === 126) {
        if (buf.length - at < 4) break;
        length = buf.readUInt16BE(at + 2);
        header = 4;
      } else if (length === 127) {
        if (buf.length - at < 10) break;
        length = buf.readUInt32BE(at + 2) * 2 ** 32 + buf.readUInt32BE(at + 6);
        header = 10;
      }
      // Servers never mask; a masked frame is a protocol error.
      if (b1 & 0x80) {
        this.terminate();
        return;
      }
      if (buf.length - at < header + length) break;
      const payload = buf.subarray(at + header, at + header + length);
      at += header + length;
      this.onFrame((b0 & 0x80) !== 0, b0 & 0x0f, payload);
    }
    // Copied: the rest of `buf` may be `READ_BUFFER`, which the next read overwrites.
    if (at < buf.length && this.state === 'open') this.pending = Buffer.from(buf.subarray(at));
  }

  private onFrame(fin: boolean, opcode: number, payload: Buffer): void {
    if (opcode === OP_PING) {
      this.socket.write(clientFrame(payload, OP_PONG));
      return;
    }
    if (opcode === OP_PONG) return;
    if (opcode === OP_CLOSE) {
      this.socket.end(clientFrame(payload.subarray(0, 2), OP_CLOSE));
      this.state = 'closed';
      return;
    }
    if (opcode !== OP_CONTINUATION && fin) {
      this.handlers.onMessage(payload);
      return;
    }
    // Fragmented message: gather until the final fragment.
    if (opcode !== OP_CONTINUATION) this.fragments = [];
    this.fragments?.push(Buffer.from(payload));
    if (fin && this.fragments) {
      const whole = Buffer.concat(this.fragments);
      this.fragments = null;
      this.handlers.onMessage(whole);
    }
  }
}
