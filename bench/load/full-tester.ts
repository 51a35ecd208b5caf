/**
 * The tester process holding the FULL screens (issue 12, "Load tester"): a sample of real
 * socket.io-client screens (websocket transport, reconnecting) that behave like the web's live board
 * (board-replica.ts): after every connect they load the snapshot `GET /api/teamAttempts`, decode every
 * `board.frame` and apply its rows with the version rule (buffered and replayed over a snapshot in
 * flight), apply `team.removed`, refetch on `board.reset`, and acknowledge frames with `board.ack` as the web does (every `BOARD_ACK_EVERY`-th)
 * once applied. Each records, per frame, `clockMs() - committed_at` weighted by the frame's rows (as the
 * lean screens do) and, per row taken, its arrival for `push_ms_from_request` (matching.ts). On request
 * it hands over every screen's held rows for the final-state check against the database.
 * Driven by the main process over IPC (tester-protocol.ts); reports its event-loop utilisation.
 */
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import {
  EVENTS,
  SOCKET_PATH,
  boardAckPolicy,
  clockMs,
  decodeBoardFrame,
  type BoardFrame,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type TeamAttempts,
  type TeamRemovedPayload,
} from '@concurso/shared';
import { BoardReplica, type HeldRow } from './board-replica.js';
import { Histogram, now } from './metrics.js';
import type {
  ArrivalRecords,
  ScreenSpec,
  TesterBoot,
  TesterReply,
  TesterRequest,
  TesterResult,
  TesterTick,
} from './tester-protocol.js';

const boot = JSON.parse(process.argv[2] ?? '{}') as TesterBoot;
const send = (message: TesterReply | TesterTick) => process.send!(message);
const CONNECT_TIMEOUT_MS = 30_000;

type ScreenSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

interface Screen {
  /** Position in this process (arrival arrays are indexed by it). */
  slot: number;
  spec: ScreenSpec;
  socket: ScreenSocket;
  replica: BoardReplica;
  /** A snapshot was applied at least once. */
  loaded: boolean;
  hist: Histogram;
  frames: number;
  lastFrameAt: number;
  /** The web's acknowledgement rule (`boardAckPolicy`), restarted with each connection. */
  ackNow: (seq: number) => number | null;
}

/** One row (team, version) taken by this process's screens, and when, per screen. */
interface ArrivalRecord {
  team: number;
  version: number;
  n: number;
  arrivals: Float32Array;
}

let token = '';
let measuring = false;
let capacity = 0;
const screens: Screen[] = [];
const records = new Map<number, ArrivalRecord>();
const processHist = new Histogram();
let frames = 0;
let rows = 0;
let resets = 0;
let disconnects = 0;
let reconnects = 0;
let open = 0;
let connectedCount = 0;
let failedCount = 0;
let tickFrames = 0;
let tickRows = 0;
let eluStart = performance.eventLoopUtilization();
let eluTraffic: number | null = null;

/** Key of (team, version): versions stay below 2^24 in any run. */
const key = (team: number, version: number) => team * 16_777_216 + version;

function arrived(slot: number, team: number, row: HeldRow): void {
  const k = key(team, row.version);
  let rec = records.get(k);
  if (!rec) {
    rec = { team, version: row.version, n: row.number_attempts, arrivals: new Float32Array(capacity) };
    rec.arrivals.fill(Number.NaN);
    records.set(k, rec);
  }
  if (Number.isNaN(rec.arrivals[slot]!)) rec.arrivals[slot] = now() - boot.t0;
}

/** The web store's `refresh`: a snapshot request whose answer replaces the board (if still the newest). */
async function refresh(screen: Screen): Promise<void> {
  const seq = screen.replica.beginSnapshot();
  try {
    const res = await fetch(`${screen.spec.url}/api/teamAttempts`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    });
    if (res.status !== 200) throw new Error(`GET /api/teamAttempts: ${res.status}`);
    const snapshot = (await res.json()) as TeamAttempts;
    if (screen.replica.finishSnapshot(seq, snapshot)) screen.loaded = true;
  } catch (err) {
    screen.replica.failSnapshot(seq);
    process.stderr.write(`[bench] full screen ${screen.spec.index}: ${String(err)}\n`);
  }
}

function onFrame(screen: Screen, frame: BoardFrame): void {
  const at = clockMs();
  const decoded = decodeBoardFrame(frame);
  screen.replica.receive(decoded.teams.map((team) => ({ type: 'updated' as const, team })));
  const ack = screen.ackNow(decoded.seq);
  if (ack !== null) screen.socket.emit(EVENTS.boardAck, ack);
  const n = decoded.teams.length;
  tickFrames++;
  tickRows += n;
  if (!measuring) return;
  const ms = at - decoded.committedAt;
  screen.hist.add(ms, n);
  processHist.add(ms, n);
  screen.frames++;
  screen.lastFrameAt = at;
  frames++;
  rows += n;
}

/** Opens one screen; resolves once its first snapshot is applied (true) or it failed (false). */
function openScreen(spec: ScreenSpec, slot: number): Promise<boolean> {
  const socket: ScreenSocket = io(spec.url, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    auth: { token },
    forceNew: true,
    reconnection: true,
    reconnectionDelay: 1_000,
    reconnectionDelayMax: 5_000,
    timeout: CONNECT_TIMEOUT_MS,
  });
  const screen: Screen = {
    slot,
    spec,
    socket,
    replica: new BoardReplica((team, row) => arrived(slot, team, row)),
    loaded: false,
    hist: new Histogram(),
    frames: 0,
    lastFrameAt: Number.NaN,
    ackNow: boardAckPolicy(),
  };
  screens.push(screen);
  socket.on(EVENTS.boardFrame, (frame: BoardFrame) => onFrame(screen, frame));
  // The web's rule restarts with each connection (the server's count of unacknowledged frames does).
  socket.on('connect', () => (screen.ackNow = boardAckPolicy()));
  socket.on(EVENTS.teamRemoved, (payload: TeamRemovedPayload) =>
    screen.replica.receive([{ type: 'removed', payload }]),
  );
  socket.on(EVENTS.boardReset, () => {
    if (measuring) resets++;
    void refresh(screen);
  });
  let everConnected = false;
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => {
      socket.close();
      resolve(false);
    }, CONNECT_TIMEOUT_MS);
    socket.on('connect', () => {
      open++;
      if (everConnected && measuring) reconnects++;
      const first = !everConnected;
      everConnected = true;
      // As the web store: every (re)connect loads the snapshot again.
      void refresh(screen).then(() => {
        if (!first) return;
        clearTimeout(timer);
        resolve(screen.loaded);
      });
    });
    socket.on('disconnect', () => {
      open--;
      if (measuring) disconnects++;
    });
    socket.on('connect_error', () => {
      if (everConnected) return;
      clearTimeout(timer);
      socket.close();
      resolve(false);
    });
  });
}

async function connect(specs: ScreenSpec[], batch: number): Promise<void> {
  capacity = specs.length;
  for (let start = 0; start < specs.length; start += batch) {
    const results = await Promise.all(
      specs.slice(start, start + batch).map((spec, i) => openScreen(spec, start + i)),
    );
    for (const ok of results) {
      if (ok) connectedCount++;
      else failedCount++;
    }
  }
}

function closeScreens(): void {
  measuring = false;
  for (const screen of screens) {
    screen.socket.removeAllListeners();
    screen.socket.close();
  }
  screens.length = 0;
  records.clear();
  open = 0;
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
  frames = rows = resets = disconnects = reconnects = 0;
  eluStart = performance.eventLoopUtilization();
  eluTraffic = null;
  measuring = true;
}

function collect(): TesterResult {
  const list = [...records.values()];
  const out: ArrivalRecords = {
    team: Int32Array.from(list, (r) => r.team),
    version: Int32Array.from(list, (r) => r.version),
    n: Int32Array.from(list, (r) => r.n),
    arrivals: list.map((r) => r.arrivals),
  };
  return {
    histogram: processHist.toJSON(),
    screenP99: Float64Array.from(screens, (s) => (s.hist.count > 0 ? s.hist.percentile(99) : Number.NaN)),
    screenFrames: Float64Array.from(screens, (s) => s.frames),
    screenLastFrameAt: Float64Array.from(screens, (s) => s.lastFrameAt),
    screenIndex: Int32Array.from(screens, (s) => s.spec.index),
    frames,
    rows,
    resets,
    disconnects,
    reconnects,
    elu: eluTraffic ?? performance.eventLoopUtilization(eluStart).utilization,
    clockOffset: clockMs() - now(),
    records: out,
  };
}

process.on('message', (request: TesterRequest) => {
  void (async () => {
    try {
      switch (request.type) {
        case 'connect':
          token = request.token;
          await connect(request.screens, request.batch);
          send({ id: request.id, type: 'connected', connected: connectedCount, failed: failedCount });
          break;
        case 'mark':
          mark();
          send({
            id: request.id,
            type: 'marked',
            open,
            openMask: Uint8Array.from(screens, (s) => (s.socket.connected && s.loaded ? 1 : 0)),
          });
          break;
        case 'traffic-end':
          eluTraffic = performance.eventLoopUtilization(eluStart).utilization;
          send({ id: request.id, type: 'ok' });
          break;
        case 'state':
          send({ id: request.id, type: 'state', states: screens.map((s) => new Map(s.replica.teams)) });
          break;
        case 'collect':
          send({ id: request.id, type: 'collected', result: collect() });
          break;
        case 'close-screens':
          closeScreens();
          send({ id: request.id, type: 'ok' });
          break;
        case 'exit':
          closeScreens();
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

process.on('disconnect', () => process.exit(0));
process.title = `bench-${boot.name ?? 'full'}`;
