import { vi } from 'vitest';

type Handler = (...args: unknown[]) => void;

/**
 * A fake socket.io-client socket for the web's unit tests: it records handlers so the test can play
 * the server (`fire`), `connect`/`disconnect` are spies that flip `active` as the real ones do, and
 * `emit` is a spy holding what the client sent (e.g. `board.ack`).
 */
export class FakeSocket {
  /** False once disconnected or refused (socket.io-client's `active`). */
  active = true;
  /** Whether the handshake is done; tests set it to play a socket already connected. */
  connected: boolean;
  handlers = new Map<string, Set<Handler>>();
  disconnect = vi.fn(() => {
    this.active = false;
  });
  connect = vi.fn(() => {
    this.active = true;
  });
  /** Client-to-server events sent, as `[event, ...args]` calls. */
  emit = vi.fn((_event: string, ..._args: unknown[]) => true);

  /** `connected`: the initial `connected` (default false). */
  constructor(connected = false) {
    this.connected = connected;
  }

  on(event: string, handler: Handler) {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event)?.add(handler);
    return this;
  }
  off(event: string, handler: Handler) {
    this.handlers.get(event)?.delete(handler);
    return this;
  }
  /** Calls every handler of `event` with `args`, as the server sending it would. */
  fire(event: string, ...args: unknown[]) {
    for (const handler of this.handlers.get(event) ?? []) handler(...args);
  }
  /** The server refuses the handshake (socket.io-client turns the socket inactive). */
  refuse(message: string) {
    this.active = false;
    this.fire('connect_error', new Error(message));
  }
  /** How many handlers are attached, over every event. */
  listenerCount() {
    return [...this.handlers.values()].reduce((sum, set) => sum + set.size, 0);
  }
}

/**
 * A stand-in for the `open-live-socket` module, for `vi.mock`: each `openLiveSocket()` makes a new
 * `FakeSocket` (`connected` as given, default false) and pushes it onto `sockets`, so the test can
 * reach every socket opened, in order.
 */
export function fakeOpenLiveSocketModule(sockets: FakeSocket[], connected = false) {
  return {
    openLiveSocket: vi.fn(() => {
      const socket = new FakeSocket(connected);
      sockets.push(socket);
      return socket;
    }),
  };
}
