/**
 * The tester process holding the FULL screens (bench/README.md, "Load tester"): a sample of real
 * socket.io-client screens (websocket transport, reconnecting) that behave like the web's live board
 * (board-replica.ts): after every connect they load the snapshot `GET /api/teamAttempts`, decode every
 * `board.frame` and apply its rows with the version rule (buffered and replayed over a snapshot in
 * flight), apply `team.removed`, refetch on `board.reset`, and acknowledge frames with `board.ack` as
 * the web does (every `BOARD_ACK_EVERY`-th) once applied. Each records, per frame, `clockMs() - committed_at` weighted by the frame's rows (as the
 * lean screens do) and, per row taken, its arrival for `push_ms_from_request` (matching.ts). On request
 * it hands over every screen's held rows for the final-state check against the database.
 * Driven by the main process over IPC (tester-protocol.ts); reports its event-loop utilisation.
 */
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
import { TesterMeasurements, boot, serveTester } from './tester-process.js';
import type { ScreenSpec } from './tester-protocol.js';

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
let capacity = 0;
const measure = new TesterMeasurements();
const screens: Screen[] = [];
const records = new Map<number, ArrivalRecord>();

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
  measure.frame(screen, at, decoded.committedAt, decoded.teams.length);
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
    if (measure.measuring) measure.resets++;
    void refresh(screen);
  });
  let everConnected = false;
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => {
      socket.close();
      resolve(false);
    }, CONNECT_TIMEOUT_MS);
    socket.on('connect', () => {
      measure.open++;
      if (everConnected && measure.measuring) measure.reconnects++;
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
      measure.open--;
      if (measure.measuring) measure.disconnects++;
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
      if (ok) measure.connected++;
      else measure.failed++;
    }
  }
}

function closeScreens(): void {
  measure.measuring = false;
  for (const screen of screens) {
    screen.socket.removeAllListeners();
    screen.socket.close();
  }
  screens.length = 0;
  records.clear();
  measure.open = 0;
}

serveTester(
  measure,
  {
    connect: async (request) => {
      token = request.token;
      await connect(request.screens, request.batch);
    },
    mark: () => {
      measure.mark(screens);
      return Uint8Array.from(screens, (s) => (s.socket.connected && s.loaded ? 1 : 0));
    },
    state: () => screens.map((s) => new Map(s.replica.teams)),
    collect: () => {
      const list = [...records.values()];
      return {
        ...measure.result(screens),
        records: {
          team: Int32Array.from(list, (r) => r.team),
          version: Int32Array.from(list, (r) => r.version),
          n: Int32Array.from(list, (r) => r.n),
          arrivals: list.map((r) => r.arrivals),
        },
      };
    },
    closeScreens,
  },
  'full',
);
