/**
 * A tester process holding LEAN screens (bench/README.md, "Load tester"): each is a bare websocket
 * (raw-websocket.ts; the `ws` library with `--client-deflate`) speaking Socket.IO v4 / Engine.IO v4 itself (handshake `0{…}`, then `40{"token":…}` to join with the judge's
 * token, `2` ping answered `3`), that for every `board.frame` reads only the header (frame-header.ts
 * `FrameReader`: the first copy of a frame in this process is parsed, every other screen's copy is
 * compared with it byte for byte over its header and by length; the rows are never parsed), records
 * `clockMs() - committed_at` weighted by the frame's rows, and
 * acknowledges as the web does, every `BOARD_ACK_EVERY`-th frame at once, with `42["board.ack",<seq>]`. A closed socket reconnects after 1 s.
 * In `baseline` mode the same screens connect to the bare ws replay server (baseline-ws-server.ts):
 * no handshake, same frames, same measure, same acknowledgement (which that server ignores).
 * The first screen of a `record` connect keeps every frame's bytes for the baseline's replay.
 * Driven by the main process over IPC (tester-protocol.ts); reports its event-loop utilisation.
 */
import WebSocket from 'ws';
import { SOCKET_PATH, boardAckPolicy, clockMs } from '@concurso/shared';
import { FrameReader, eventName } from './frame-header.js';
import { Histogram } from './metrics.js';
import { RawWebSocket, clientFrame, type RawWebSocketHandlers } from './raw-websocket.js';
import { TesterMeasurements, serveTester } from './tester-process.js';
import type { RecordedFrame, ScreenSpec } from './tester-protocol.js';

/** Reconnect delay after an unexpected close (ms). */
const RECONNECT_MS = 1_000;
/** Give up a screen's first connection after this long (ms). */
const CONNECT_TIMEOUT_MS = 30_000;

/** A lean screen's connection, whichever client holds it. */
interface LeanSocket {
  send(text: string): void;
  /** Sends `42["board.ack",<seq>]`. */
  ack(seq: number): void;
  terminate(): void;
}

/** One lean screen. */
interface Screen {
  spec: ScreenSpec;
  index: number;
  ws: LeanSocket | null;
  joined: boolean;
  /** Opened once at least: a later close is a disconnect and reconnects. */
  everJoined: boolean;
  hist: Histogram;
  frames: number;
  lastFrameAt: number;
  recording: boolean;
  /** The web's acknowledgement rule (`boardAckPolicy`: every `BOARD_ACK_EVERY`-th frame), per connection. */
  ackNow: (seq: number) => number | null;
}

let mode: 'socket.io' | 'baseline' = 'socket.io';
let token = '';
let deflate = false;
let closing = false;
const measure = new TesterMeasurements();
const screens: Screen[] = [];
const frameReader = new FrameReader();
const recorded: RecordedFrame[] = [];
/** Sockets opened and not closed yet. */
let liveSockets = 0;

const ackText = (seq: number) => `42["board.ack",${seq}]`;
let lastAckSeq = Number.NaN;
let lastAckFrame: Buffer = Buffer.alloc(0);
/**
 * The ack of `seq` as a whole client frame, built once per seq: every screen of a server acknowledges
 * the same seq within a few ms, and one shared Buffer costs no allocation per screen.
 */
function ackFrame(seq: number): Buffer {
  if (seq !== lastAckSeq) {
    lastAckFrame = clientFrame(Buffer.from(ackText(seq), 'latin1'));
    lastAckSeq = seq;
  }
  return lastAckFrame;
}

/** The default client: raw-websocket.ts, prebuilt ack frames. */
function rawSocket(url: string, handlers: RawWebSocketHandlers): LeanSocket {
  const socket = new RawWebSocket(url, handlers);
  return {
    send: (text) => socket.send(text),
    ack: (seq) => socket.sendFrame(ackFrame(seq)),
    terminate: () => socket.terminate(),
  };
}

/** With `--client-deflate`: the `ws` library, offering permessage-deflate like a browser. */
function wsSocket(url: string, handlers: RawWebSocketHandlers): LeanSocket {
  const ws = new WebSocket(url, { perMessageDeflate: true, skipUTF8Validation: true });
  ws.on('open', () => handlers.onOpen());
  ws.on('message', (data: Buffer) => handlers.onMessage(data));
  ws.on('error', () => undefined);
  ws.on('close', () => handlers.onClose());
  const send = (text: string) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(text);
  };
  return { send, ack: (seq) => send(ackText(seq)), terminate: () => ws.terminate() };
}

function onMessage(screen: Screen, data: Buffer): void {
  // The receive time first: everything after it is the tester's own cost.
  const at = clockMs();
  const first = data[0];
  if (first === 0x34 /* 4 */ && data[1] === 0x32 /* 2: event */) {
    const frame = frameReader.read(data);
    if (frame) {
      const ack = screen.ackNow(frame.seq);
      if (ack !== null) screen.ws?.ack(ack);
      measure.frame(screen, at, frame.committedAt, frame.rows);
      if (measure.measuring && screen.recording) {
        recorded.push({ bytes: Buffer.from(data), committedAt: frame.committedAt, receivedAt: at });
      }
      return;
    }
    if (eventName(data) === 'board.reset' && measure.measuring) measure.resets++;
    return;
  }
  if (mode === 'baseline') return;
  if (first === 0x32 /* 2: ping */) {
    screen.ws?.send('3');
  } else if (first === 0x30 /* 0: open */) {
    screen.ws?.send(`40${JSON.stringify({ token })}`);
  } else if (first === 0x34 && data[1] === 0x30 /* 40: joined */) {
    joined(screen);
  } else if (first === 0x34 && data[1] === 0x34 /* 44: refused */) {
    screen.ws?.terminate();
  }
}

let onJoin: ((screen: Screen, ok: boolean) => void) | null = null;

function joined(screen: Screen): void {
  if (screen.joined) return;
  screen.joined = true;
  measure.open++;
  if (screen.everJoined) {
    if (measure.measuring) measure.reconnects++;
  } else {
    screen.everJoined = true;
    onJoin?.(screen, true);
  }
}

function openSocket(screen: Screen): void {
  const url =
    mode === 'baseline'
      ? screen.spec.url
      : `${screen.spec.url.replace(/^http/, 'ws')}${SOCKET_PATH}/?EIO=4&transport=websocket`;
  const ws: LeanSocket = (deflate ? wsSocket : rawSocket)(url, {
    onOpen: () => {
      if (mode === 'baseline') joined(screen);
    },
    onMessage: (data) => onMessage(screen, data),
    onClose: () => {
      liveSockets--;
      if (screen.ws !== ws) return;
      screen.ws = null;
      if (screen.joined) {
        screen.joined = false;
        measure.open--;
        if (measure.measuring) measure.disconnects++;
      }
      if (!screen.everJoined) {
        onJoin?.(screen, false);
        return;
      }
      if (!closing) setTimeout(() => !closing && !screen.ws && openSocket(screen), RECONNECT_MS).unref();
    },
  });
  liveSockets++;
  screen.ws = ws;
  screen.ackNow = boardAckPolicy();
}

/** Opens `specs` `batch` at a time; each batch waits for its screens to join (or fail). */
async function connect(specs: ScreenSpec[], batch: number, record: boolean): Promise<void> {
  closing = false;
  for (let start = 0; start < specs.length; start += batch) {
    const slice = specs.slice(start, start + batch);
    await new Promise<void>((resolve) => {
      let left = slice.length;
      const pending = new Set<Screen>();
      const timer = setTimeout(() => {
        for (const screen of pending) {
          screen.everJoined = true; // no retry for a screen that never made it
          screen.ws?.terminate();
          measure.failed++;
        }
        pending.clear();
        resolve();
      }, CONNECT_TIMEOUT_MS);
      onJoin = (screen, ok) => {
        if (!pending.delete(screen)) return;
        if (ok) measure.connected++;
        else measure.failed++;
        if (--left === 0) {
          clearTimeout(timer);
          resolve();
        }
      };
      for (const spec of slice) {
        const screen: Screen = {
          spec,
          index: spec.index,
          ws: null,
          ackNow: boardAckPolicy(),
          joined: false,
          everJoined: false,
          hist: new Histogram(),
          frames: 0,
          lastFrameAt: Number.NaN,
          recording: record && screens.length === 0,
        };
        screens.push(screen);
        pending.add(screen);
        openSocket(screen);
      }
    });
  }
  onJoin = null;
}

async function closeScreens(): Promise<void> {
  closing = true;
  measure.measuring = false;
  for (const screen of screens) screen.ws?.terminate();
  // Until every socket reported its close (at most 5 s).
  const deadline = Date.now() + 5_000;
  while (liveSockets > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  screens.length = 0;
  recorded.length = 0;
  measure.open = 0;
  measure.connected = 0;
  measure.failed = 0;
}

serveTester(
  measure,
  {
    connect: async (request) => {
      mode = request.mode;
      token = request.token;
      deflate = request.deflate;
      await connect(request.screens, request.batch, request.record);
    },
    mark: () => {
      measure.mark(screens);
      recorded.length = 0;
      return Uint8Array.from(screens, (s) => (s.joined ? 1 : 0));
    },
    collect: () => ({ ...measure.result(screens), recorded: recorded.length ? [...recorded] : undefined }),
    closeScreens,
  },
  'lean',
);
