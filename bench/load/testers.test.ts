import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Server } from 'socket.io';
import {
  SOCKET_PATH,
  clockMs,
  encodeBoardRow,
  type BoardFrame,
  type BoardTeam,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@concurso/shared';
import { boardTeam } from '@concurso/shared/test-support/board-team';
import { now } from './metrics.js';
import { TesterProcess } from './testers.js';

/*
 * The tester processes against a real Socket.IO v4 server (not the product: a stand-in that speaks the
 * push contract of shared/src/events.ts and serves a snapshot), so the lean screens' hand-written
 * Engine.IO/Socket.IO handling and the full screens' store logic are checked on the wire.
 */

const TOKEN = 'token-de-prueba';
const team = (id: number, version: number, attempts: number): BoardTeam =>
  boardTeam(id, { version, number_attempts: attempts, agent_online: true });

let http: HttpServer;
let io: Server<ClientToServerEvents, ServerToClientEvents>;
let url: string;
/** Acks received: socket id -> seqs. */
const acks = new Map<string, number[]>();
let refused = 0;

beforeAll(async () => {
  http = createServer((req, res) => {
    if (req.url === '/api/teamAttempts' && req.headers.authorization === `Bearer ${TOKEN}`) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          success: true,
          message: '',
          contest: null,
          basico: [team(1, 1, 0), team(2, 1, 0)],
          intermedio: [],
          avanzado: [],
        }),
      );
      return;
    }
    if (!req.url?.startsWith(SOCKET_PATH)) {
      res.writeHead(404);
      res.end();
    }
  });
  // A short ping interval: the lean screens must answer Engine.IO pings or be dropped.
  io = new Server(http, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    pingInterval: 100,
    pingTimeout: 300,
  });
  io.use((socket, next) => {
    if ((socket.handshake.auth as { token?: string }).token === TOKEN) return next();
    refused++;
    next(new Error('token'));
  });
  io.on('connection', (socket) => {
    acks.set(socket.id, []);
    socket.on('board.ack', (seq) => acks.get(socket.id)!.push(seq));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await io.close();
});

const waitFor = async (check: () => boolean, ms = 5_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};
const ackCount = () => [...acks.values()].reduce((a, list) => a + list.length, 0);

describe('lean tester', { timeout: 30_000 }, () => {
  it('joins with the token, answers pings, reads each frame header, acks it and records the frames', async () => {
    acks.clear();
    const tester = new TesterProcess('lean', 'lean-test', now());
    try {
      const screens = [0, 1, 2].map((index) => ({ index, url }));
      const connected = await tester.call(
        { type: 'connect', mode: 'socket.io', screens, token: TOKEN, batch: 2, record: true, deflate: false },
        'connected',
      );
      expect(connected).toMatchObject({ connected: 3, failed: 0 });
      const marked = await tester.call({ type: 'mark' }, 'marked');
      expect([...marked.openMask]).toEqual([1, 1, 1]);
      // Several ping intervals: a screen that did not answer would be dropped.
      await new Promise((r) => setTimeout(r, 700));
      const committed = clockMs() - 60;
      const first: BoardFrame = [
        7,
        committed,
        [encodeBoardRow(team(1, 2, 3)), encodeBoardRow(team(2, 2, 1))],
      ];
      const second: BoardFrame = [8, committed + 10, [encodeBoardRow(team(1, 3, 4))]];
      io.emit('board.frame', first);
      io.emit('board.frame', second);
      io.emit('board.frame', [9, committed + 20, [encodeBoardRow(team(2, 3, 2))]]);
      io.emit('board.frame', [10, committed + 30, [encodeBoardRow(team(1, 4, 5))]]);
      io.emit('board.reset');
      // As the web: one ack every BOARD_ACK_EVERY (4) frames, of the last one.
      await waitFor(() => ackCount() === 3);
      expect([...acks.values()].map((list) => list.join(','))).toEqual(['10', '10', '10']);
      await tester.call({ type: 'traffic-end' }, 'ok');
      const { result } = await tester.call({ type: 'collect' }, 'collected');
      expect(result).toMatchObject({ frames: 12, rows: 15, resets: 3, disconnects: 0, reconnects: 0 });
      // Weighted by rows: 2 + 1 + 1 + 1 per screen; every latency at least the 30-60 ms the frames were old.
      expect(result.histogram.count).toBe(15);
      expect(result.histogram.sum / result.histogram.count).toBeGreaterThanOrEqual(30);
      expect([...result.screenFrames]).toEqual([4, 4, 4]);
      expect(result.recorded?.map((r) => r.committedAt)).toEqual([
        committed,
        committed + 10,
        committed + 20,
        committed + 30,
      ]);
      expect(result.recorded?.[0]!.bytes.toString()).toBe(`42${JSON.stringify(['board.frame', first])}`);
      expect(result.elu).toBeGreaterThan(0);
      expect(result.elu).toBeLessThan(1);
    } finally {
      await tester.stop();
    }
  });

  it('counts a screen refused by the server as failed', async () => {
    const tester = new TesterProcess('lean', 'lean-test', now());
    try {
      const before = refused;
      const connected = await tester.call(
        {
          type: 'connect',
          mode: 'socket.io',
          screens: [{ index: 0, url }],
          token: 'mala',
          batch: 1,
          record: false,
          deflate: false,
        },
        'connected',
      );
      expect(connected).toMatchObject({ connected: 0, failed: 1 });
      expect(refused).toBe(before + 1);
    } finally {
      await tester.stop();
    }
  });
});

describe('full tester', { timeout: 30_000 }, () => {
  it('loads the snapshot, applies frames with the version rule, acks them and hands over its boards', async () => {
    acks.clear();
    const t0 = now();
    const tester = new TesterProcess('full', 'full-test', t0);
    try {
      const screens = [0, 1].map((index) => ({ index, url }));
      const connected = await tester.call(
        {
          type: 'connect',
          mode: 'socket.io',
          screens,
          token: TOKEN,
          batch: 2,
          record: false,
          deflate: false,
        },
        'connected',
      );
      expect(connected).toMatchObject({ connected: 2, failed: 0 });
      await tester.call({ type: 'mark' }, 'marked');
      const committed = clockMs() - 20;
      io.emit('board.frame', [3, committed, [encodeBoardRow(team(1, 5, 9)), encodeBoardRow(team(2, 2, 1))]]);
      // Older than what the screens hold now: dropped.
      io.emit('board.frame', [4, committed, [encodeBoardRow(team(1, 4, 7))]]);
      io.emit('team.removed', { id: 2, levels_id: 1 });
      // Two more (empty) frames: the web acknowledges every BOARD_ACK_EVERY (4) frames.
      io.emit('board.frame', [5, committed, []]);
      io.emit('board.frame', [6, committed, []]);
      await waitFor(() => ackCount() === 2);
      expect([...acks.values()].map((list) => list.join(','))).toEqual(['6', '6']);
      const { states } = await tester.call({ type: 'state' }, 'state');
      expect(states).toHaveLength(2);
      for (const held of states) {
        expect([...held.keys()]).toEqual([1]);
        expect(held.get(1)).toMatchObject({ version: 5, number_attempts: 9, status_id: 1 });
      }
      const { result } = await tester.call({ type: 'collect' }, 'collected');
      expect(result).toMatchObject({ frames: 8, rows: 6 });
      const records = result.records!;
      const v5 = [...records.team].findIndex((id, i) => id === 1 && records.version[i] === 5);
      expect(v5).toBeGreaterThanOrEqual(0);
      expect(records.n[v5]).toBe(9);
      // Taken on both screens, after the run's t0.
      expect([...records.arrivals[v5]!].every((at) => at > 0)).toBe(true);
      // The dropped row (version 4) was never taken.
      expect([...records.team].some((id, i) => id === 1 && records.version[i] === 4)).toBe(false);
    } finally {
      await tester.stop();
    }
  });
});
