/**
 * Worker thread holding a share of the simulated screens (see screens.ts for the protocol).
 * - `socket.io` client: each screen is a real socket.io-client (websocket transport only) in every
 *   level room. Every board row it receives (`team.updated`, or each row of a gathered
 *   `teams.updated`) is stored as an arrival time (ms since the run's `t0`, float32: ~0.03 ms
 *   resolution over 5 minutes) in a record keyed by (team id, version): every change of a team bumps
 *   its version, so that pair names one row. Matching rows to the requests that caused them happens
 *   later in the main thread (matching.ts), once every answer is known.
 * - `raw` client: the same protocol and bookkeeping over a bare ws socket, for a lighter load tester.
 * - `ws` mode (the baseline): each screen is a bare `ws` client and the latency (ms) is computed at
 *   once from the send time the baseline server writes into each frame.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import {
  SOCKET_PATH,
  type BoardTeam,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@concurso/shared';
import { Histogram, now } from './metrics.js';
import type { ScreenRecords, ToWorker, FromWorker } from './screens.js';

const port = parentPort!;
const { t0 } = workerData as { t0: number };
const send = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

/** One push seen by this worker's screens: (team, version), its attempt count, arrival per screen. */
interface PushRecord {
  team: number;
  version: number;
  n: number;
  arrivals: Float32Array;
}

// socket.io mode state
const sockets: Array<Socket<ServerToClientEvents, ClientToServerEvents>> = [];
const records = new Map<number, PushRecord>();
let duplicates = 0;
let disconnects = 0;
let reconnects = 0;
// raw mode state
const rawSockets: WebSocket[] = [];
// ws mode state
const clients: WebSocket[] = [];
const wsHistogram = new Histogram();
let wsReceived = 0;
// both
let pushesThisTick = 0;
let rowsThisTick = 0;
let open = 0;
let elu = performance.eventLoopUtilization();

/** Key of (team, version): versions stay below 2^24 in any run. */
const key = (team: number, version: number) => team * 16_777_216 + version;

/** One push frame (`team.updated` or `teams.updated`) reached screen `screen` of `count`. */
function onFrame(screen: number, count: number, rows: BoardTeam[]): void {
  const t = now() - t0;
  pushesThisTick++;
  rowsThisTick += rows.length;
  for (const row of rows) onRow(screen, count, row, t);
  // A saturated worker runs its timers only every few seconds (libuv polls up to 48 x 1024 ready
  // sockets before the timers phase), so the tick is also sent from here when it is due.
  if (t - lastTickAt >= 1_000) tick();
}

function onRow(screen: number, count: number, team: BoardTeam, t: number): void {
  const k = key(team.id, team.version);
  let rec = records.get(k);
  if (!rec) {
    rec = {
      team: team.id,
      version: team.version,
      n: team.number_attempts,
      arrivals: new Float32Array(count),
    };
    rec.arrivals.fill(Number.NaN);
    records.set(k, rec);
  }
  if (Number.isNaN(rec.arrivals[screen]!)) rec.arrivals[screen] = t;
  else duplicates++;
}

/** Waits for one socket's first connection; false on error or after 30 s. */
function firstConnect(socket: Socket<ServerToClientEvents, ClientToServerEvents>): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), 30_000);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.off('connect', onConnect);
      socket.off('connect_error', onError);
      resolve(ok);
    };
    const onConnect = () => done(true);
    const onError = () => done(false);
    socket.once('connect', onConnect);
    socket.once('connect_error', onError);
  });
}

/**
 * Opens `count` screens `batch` at a time: `openScreen(i)` starts screen i and answers whether it
 * connected. Reports the tally to the main thread after each batch and once at the end.
 */
async function rampUp(count: number, batch: number, openScreen: (i: number) => Promise<boolean>) {
  let connected = 0;
  let failed = 0;
  for (let start = 0; start < count; start += batch) {
    const waits: Array<Promise<boolean>> = [];
    for (let i = start; i < Math.min(count, start + batch); i++) waits.push(openScreen(i));
    for (const ok of await Promise.all(waits)) {
      if (ok) {
        connected++;
        open++;
      } else failed++;
    }
    send({ type: 'progress', connected, failed });
  }
  send({ type: 'connected', connected, failed });
}

function connectSocketIo(urls: string[], token: string, first: number, count: number, batch: number) {
  return rampUp(count, batch, (i) => {
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(urls[(first + i) % urls.length]!, {
      path: SOCKET_PATH,
      transports: ['websocket'],
      auth: { token },
      forceNew: true,
      reconnection: true,
      reconnectionDelay: 1_000,
      reconnectionDelayMax: 5_000,
      timeout: 30_000,
    });
    socket.on('team.updated', (team) => onFrame(i, count, [team]));
    socket.on('teams.updated', (teams) => onFrame(i, count, teams));
    sockets.push(socket);
    return firstConnect(socket).then((ok) => {
      if (!ok) {
        socket.close();
        return false;
      }
      socket.on('disconnect', () => {
        disconnects++;
        open--;
      });
      socket.on('connect', () => {
        reconnects++;
        open++;
      });
      return true;
    });
  });
}

/**
 * A screen speaking the Socket.IO v5 / Engine.IO v4 protocol straight over a bare `ws` socket (the
 * `raw` client): same handshake auth, rooms and events as socket.io-client, a fraction of its CPU
 * (no reconnection). Used to tell the load tester's client cost from the server's.
 */
function rawScreen(url: string, token: string, screen: number, count: number): Promise<boolean> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}${SOCKET_PATH}/?EIO=4&transport=websocket`, {
    perMessageDeflate: false,
  });
  rawSockets.push(ws);
  return new Promise<boolean>((resolve) => {
    let joined = false;
    const timer = setTimeout(() => {
      ws.terminate();
      resolve(false);
    }, 30_000);
    ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      const type = text.charCodeAt(0);
      if (type === 52 /* '4' message */ && text.charCodeAt(1) === 50 /* '2' event */) {
        const [name, payload] = JSON.parse(text.slice(2)) as [string, BoardTeam | BoardTeam[]];
        if (name === 'team.updated') onFrame(screen, count, [payload as BoardTeam]);
        else if (name === 'teams.updated') onFrame(screen, count, payload as BoardTeam[]);
      } else if (type === 50 /* '2' ping */) {
        ws.send('3');
      } else if (type === 48 /* '0' open */) {
        ws.send(`40${JSON.stringify({ token })}`);
      } else if (text.startsWith('40')) {
        joined = true;
        clearTimeout(timer);
        resolve(true);
      } else if (text.startsWith('44')) {
        clearTimeout(timer);
        ws.close();
        resolve(false);
      }
    });
    ws.on('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    ws.on('close', () => {
      if (joined) {
        disconnects++;
        open--;
      }
    });
  });
}

function connectRaw(urls: string[], token: string, first: number, count: number, batch: number) {
  return rampUp(count, batch, (i) => rawScreen(urls[(first + i) % urls.length]!, token, i, count));
}

function connectWs(url: string, count: number, batch: number) {
  return rampUp(count, batch, () => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.on('message', (data: Buffer) => {
      const t = now();
      const msg = JSON.parse(data.toString('utf8')) as { sent: number };
      wsHistogram.add(t - msg.sent);
      wsReceived++;
      pushesThisTick++;
    });
    clients.push(ws);
    ws.on('close', () => open--);
    return new Promise<boolean>((resolve) => {
      ws.once('open', () => resolve(true));
      ws.once('error', () => resolve(false));
    });
  });
}

/** Which of this worker's screens are connected now (1) or not (0). */
function openMask(): Uint8Array {
  const mask = new Uint8Array(Math.max(sockets.length, rawSockets.length, clients.length));
  sockets.forEach((s, i) => (mask[i] = s.connected ? 1 : 0));
  rawSockets.forEach((c, i) => (mask[i] = c.readyState === WebSocket.OPEN ? 1 : 0));
  clients.forEach((c, i) => (mask[i] = c.readyState === WebSocket.OPEN ? 1 : 0));
  return mask;
}

function collect(): void {
  const used = performance.eventLoopUtilization(elu).utilization;
  if (clients.length > 0) {
    send({ type: 'ws-result', histogram: wsHistogram.toJSON(), received: wsReceived, elu: used });
    return;
  }
  const list = [...records.values()];
  const out: ScreenRecords = {
    team: Int32Array.from(list, (r) => r.team),
    version: Int32Array.from(list, (r) => r.version),
    n: Int32Array.from(list, (r) => r.n),
    arrivals: list.map((r) => r.arrivals),
  };
  send({ type: 'records', records: out, duplicates, disconnects, reconnects, elu: used }, [
    ...out.arrivals.map((a) => a.buffer as ArrayBuffer),
  ]);
  records.clear();
}

async function closeAll(): Promise<void> {
  for (const s of sockets) {
    s.removeAllListeners();
    s.close();
  }
  await Promise.all(
    [...clients, ...rawSockets].map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.readyState === WebSocket.CLOSED) return resolve();
          c.once('close', () => resolve());
          c.terminate();
        }),
    ),
  );
  send({ type: 'closed' });
}

let lastTickAt = now() - t0;
function tick(): void {
  lastTickAt = now() - t0;
  send({ type: 'tick', pushes: pushesThisTick, rows: rowsThisTick, open });
  pushesThisTick = 0;
  rowsThisTick = 0;
}
const ticker = setInterval(() => {
  if (now() - t0 - lastTickAt >= 900) tick();
}, 1_000);

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'connect':
      if (message.client === 'raw') {
        void connectRaw(message.urls, message.token, message.first, message.count, message.batch);
      } else void connectSocketIo(message.urls, message.token, message.first, message.count, message.batch);
      break;
    case 'connect-ws':
      void connectWs(message.url, message.count, message.batch);
      break;
    case 'mark':
      elu = performance.eventLoopUtilization();
      send({ type: 'marked', open: openMask() });
      break;
    case 'collect':
      collect();
      break;
    case 'close':
      clearInterval(ticker);
      void closeAll();
      break;
  }
});
