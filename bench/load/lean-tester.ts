/**
 * A tester process holding LEAN screens (issue 12, "Load tester"): each is a bare websocket
 * (raw-websocket.ts; the `ws` library with `--client-deflate`) speaking Socket.IO v4 / Engine.IO v4 itself (handshake `0{…}`, then `40{"token":…}` to join with the judge's
 * token, `2` ping answered `3`), that for every `board.frame` reads only the header (frame-header.ts;
 * the rows are never parsed), records `clockMs() - committed_at` weighted by the frame's rows, and
 * acknowledges as the web does, every `BOARD_ACK_EVERY`-th frame at once, with `42["board.ack",<seq>]`. A closed socket reconnects after 1 s.
 * In `baseline` mode the same screens connect to the bare ws replay server (baseline-ws-server.ts):
 * no handshake, same frames, same measure, same acknowledgement (which that server ignores).
 * The first screen of a `record` connect keeps every frame's bytes for the baseline's replay.
 * Driven by the main process over IPC (tester-protocol.ts); reports its event-loop utilisation.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { SOCKET_PATH, boardAckPolicy, clockMs } from '@concurso/shared';
import { RowCountCache, eventName, parseFrameHeader } from './frame-header.js';
import { Histogram, now } from './metrics.js';
import { RawWebSocket, clientFrame, type RawWebSocketHandlers } from './raw-websocket.js';
import type {
  RecordedFrame,
  ScreenSpec,
  TesterBoot,
  TesterReply,
  TesterRequest,
  TesterResult,
  TesterTick,
} from './tester-protocol.js';

const boot = JSON.parse(process.argv[2] ?? '{}') as TesterBoot;
const send = (message: TesterReply | TesterTick) => process.send!(message);

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
let measuring = false;
const screens: Screen[] = [];
const processHist = new Histogram();
const rowCounts = new RowCountCache();
const recorded: RecordedFrame[] = [];
let frames = 0;
let rows = 0;
let resets = 0;
let disconnects = 0;
let reconnects = 0;
let open = 0;
/** Sockets opened and not closed yet. */
let liveSockets = 0;
let connectedCount = 0;
let failedCount = 0;
// Per-second counters for the tick.
let tickFrames = 0;
let tickRows = 0;
let eluStart = performance.eventLoopUtilization();
let eluTraffic: number | null = null;

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
    const header = parseFrameHeader(data);
    if (header) {
      const n = rowCounts.rowsOf(data, header);
      const ack = screen.ackNow(header.seq);
      if (ack !== null) screen.ws?.ack(ack);
      tickFrames++;
      tickRows += n;
      if (!measuring) return;
      const ms = at - header.committedAt;
      screen.hist.add(ms, n);
      processHist.add(ms, n);
      screen.frames++;
      screen.lastFrameAt = at;
      frames++;
      rows += n;
      if (screen.recording) {
        recorded.push({ bytes: Buffer.from(data), committedAt: header.committedAt, receivedAt: at });
      }
      return;
    }
    if (eventName(data) === 'board.reset' && measuring) resets++;
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
  open++;
  if (screen.everJoined) {
    if (measuring) reconnects++;
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
        open--;
        if (measuring) disconnects++;
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
          failedCount++;
        }
        pending.clear();
        resolve();
      }, CONNECT_TIMEOUT_MS);
      onJoin = (screen, ok) => {
        if (!pending.delete(screen)) return;
        if (ok) connectedCount++;
        else failedCount++;
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
  measuring = false;
  for (const screen of screens) screen.ws?.terminate();
  // Until every socket reported its close (at most 5 s).
  const deadline = Date.now() + 5_000;
  while (liveSockets > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  screens.length = 0;
  recorded.length = 0;
  open = 0;
  connectedCount = 0;
  failedCount = 0;
}

function mark(): void {
  for (const screen of screens) {
    screen.hist = new Histogram();
    screen.frames = 0;
    screen.lastFrameAt = Number.NaN;
  }
  processHist.counts.fill(0);
  processHist.count = 0;
  processHist.sum = 0;
  processHist.max = 0;
  recorded.length = 0;
  frames = rows = resets = disconnects = reconnects = 0;
  eluStart = performance.eventLoopUtilization();
  eluTraffic = null;
  measuring = true;
}

function collect(): TesterResult {
  const elu = eluTraffic ?? performance.eventLoopUtilization(eluStart).utilization;
  return {
    histogram: processHist.toJSON(),
    screenP99: Float64Array.from(screens, (s) => (s.hist.count > 0 ? s.hist.percentile(99) : Number.NaN)),
    screenFrames: Float64Array.from(screens, (s) => s.frames),
    screenLastFrameAt: Float64Array.from(screens, (s) => s.lastFrameAt),
    screenIndex: Int32Array.from(screens, (s) => s.index),
    frames,
    rows,
    resets,
    disconnects,
    reconnects,
    elu,
    clockOffset: clockMs() - now(),
    recorded: recorded.length ? [...recorded] : undefined,
  };
}

process.on('message', (request: TesterRequest) => {
  void (async () => {
    try {
      switch (request.type) {
        case 'connect':
          mode = request.mode;
          token = request.token;
          deflate = request.deflate;
          await connect(request.screens, request.batch, request.record);
          send({ id: request.id, type: 'connected', connected: connectedCount, failed: failedCount });
          break;
        case 'mark':
          mark();
          send({
            id: request.id,
            type: 'marked',
            open,
            openMask: Uint8Array.from(screens, (s) => (s.joined ? 1 : 0)),
          });
          break;
        case 'traffic-end':
          eluTraffic = performance.eventLoopUtilization(eluStart).utilization;
          send({ id: request.id, type: 'ok' });
          break;
        case 'collect':
          send({ id: request.id, type: 'collected', result: collect() });
          break;
        case 'close-screens':
          await closeScreens();
          send({ id: request.id, type: 'ok' });
          break;
        case 'exit':
          await closeScreens();
          send({ id: request.id, type: 'ok' });
          setTimeout(() => process.exit(0), 50);
          break;
        default: {
          const unknown = request as { id: number; type: string };
          send({ id: unknown.id, type: 'error', message: `unknown request ${unknown.type}` });
        }
      }
    } catch (err) {
      send({ id: request.id, type: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  })();
});

setInterval(() => {
  send({
    type: 'tick',
    frames: tickFrames,
    rows: tickRows,
    open,
    connected: connectedCount,
    failed: failedCount,
  });
  tickFrames = 0;
  tickRows = 0;
}, 1_000).unref();

// The main process is gone (crash, Ctrl-C): nothing to report to any more.
process.on('disconnect', () => process.exit(0));
process.title = `bench-${boot.name ?? 'lean'}`;
