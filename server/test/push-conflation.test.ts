import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { io as ioClient } from 'socket.io-client';
import {
  BOARD_PUSH_CREDIT,
  SOCKET_PATH,
  USER_TYPES,
  decodeBoardFrame,
  type BoardFrame,
  type BoardTeam,
} from '@concurso/shared';
import { eventually, signIn, startTestServer, type TestServer } from '@concurso/testkit';

/**
 * Flow control of the push (docs/design.md section 6): a screen that does not acknowledge its
 * frames (it reads slower than the pushes come) gets at most `BOARD_PUSH_CREDIT` of them, and once it
 * acknowledges again one catch-up frame that leaves it with the current board.
 */
describe('push to a screen that reads slower than the pushes come', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer();
    token = await signIn(server, USER_TYPES.judge, 'juez_lento', 'clave-juez');
  });
  afterAll(async () => server?.close());

  /**
   * A Socket.IO screen over a bare ws socket that acknowledges only when the test says so; following
   * `levels` (default: every level).
   */
  const rawScreen = async (levels?: number[]) => {
    const url = `${server.url.replace('http', 'ws')}${SOCKET_PATH}/?EIO=4&transport=websocket`;
    const ws = new WebSocket(url);
    const frames: BoardFrame[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.on('error', reject);
      ws.on('message', (data) => {
        const text = String(data);
        if (text.startsWith('0')) ws.send(`40${JSON.stringify({ token, ...(levels ? { levels } : {}) })}`);
        else if (text.startsWith('40')) resolve();
        else if (text === '2') ws.send('3');
        else if (text.startsWith('42')) {
          const [name, payload] = JSON.parse(text.slice(2)) as [string, BoardFrame];
          if (name === 'board.frame') frames.push(payload);
        }
      });
    });
    const ack = (seq: number) => ws.send(`42${JSON.stringify(['board.ack', seq])}`);
    const newest = () => {
      const latest = new Map<number, number>();
      for (const frame of frames) {
        for (const row of decodeBoardFrame(frame).teams) {
          latest.set(row.id, Math.max(latest.get(row.id) ?? 0, row.version));
        }
      }
      return latest;
    };
    return { ws, frames, ack, newest };
  };

  const row = (id: number, version: number): BoardTeam => ({
    id,
    name: `Equipo ${id}`,
    levels_id: 1 + (id % 3),
    number_attempts: version,
    status_team: { id: 1, status: 'Activo' },
    agent_online: true,
    agent_alert: null,
    version,
  });

  it('stops at the credit, then sends one catch-up frame with the newest row of each team', async () => {
    const slow = await rawScreen();
    const fast = await rawScreen();
    // The fast screen acknowledges every frame as it comes, like the web does.
    fast.ws.on('message', (data) => {
      const text = String(data);
      if (text.startsWith('42["board.frame"')) fast.ack(fast.frames.at(-1)![0]);
    });
    const TEAMS = 200;
    const TICKS = 50;
    try {
      for (let version = 1; version <= TICKS; version++) {
        for (let id = 1; id <= TEAMS; id++) server.app.board.teamUpdated(row(id, version));
        server.app.board.flush();
        await new Promise((r) => setTimeout(r, 5));
      }
      const current = (latest: Map<number, number>) =>
        latest.size === TEAMS && [...latest.values()].every((v) => v === TICKS);
      expect(await eventually(() => current(fast.newest()), 10_000)).toBe(true);
      expect(fast.frames).toHaveLength(TICKS);

      // The slow screen never acknowledged: it got the credit's worth of frames and nothing since.
      expect(slow.frames).toHaveLength(BOARD_PUSH_CREDIT);
      expect(current(slow.newest())).toBe(false);

      // It acknowledges what it holds: one catch-up frame brings it to the current board.
      slow.ack(slow.frames.at(-1)![0]);
      expect(await eventually(() => slow.frames.length >= BOARD_PUSH_CREDIT + 1, 5_000)).toBe(true);
      const catchUp = decodeBoardFrame(slow.frames.at(-1)!);
      expect(catchUp.teams).toHaveLength(TEAMS);
      expect(current(slow.newest())).toBe(true);
      // The catch-up is stamped with the oldest change it missed, not with the time it was sent.
      expect(catchUp.committedAt).toBeLessThan(decodeBoardFrame(fast.frames.at(-1)!).committedAt);
    } finally {
      slow.ws.terminate();
      fast.ws.terminate();
    }
  });

  it('gives a screen of one level only its level in the catch-up', async () => {
    const { ws, frames, ack } = await rawScreen([2]);
    try {
      for (let version = 1; version <= 10; version++) {
        for (let id = 1; id <= 30; id++) server.app.board.teamUpdated(row(id, 1000 + version));
        server.app.board.flush();
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(await eventually(() => frames.length >= BOARD_PUSH_CREDIT, 5_000)).toBe(true);
      ack(frames.at(-1)![0]);
      expect(await eventually(() => frames.length >= BOARD_PUSH_CREDIT + 1, 5_000)).toBe(true);
      const rows = decodeBoardFrame(frames.at(-1)!).teams;
      expect(rows.length).toBe(10);
      expect(rows.every((team) => team.levels_id === 2 && team.version === 1010)).toBe(true);
    } finally {
      ws.terminate();
    }
  });

  it('writes the same frame to a WebSocket screen directly and to a long-polling one the usual way', async () => {
    // realtime/frame-writer.ts writes to the WebSocket itself only when that is safe; a screen on
    // HTTP long-polling (a proxy that blocks WebSockets) must get the very same frame through Engine.IO.
    const polling = ioClient(server.url, {
      path: SOCKET_PATH,
      auth: { token },
      transports: ['polling'],
      forceNew: true,
    });
    const socket = ioClient(server.url, {
      path: SOCKET_PATH,
      auth: { token },
      transports: ['websocket'],
      forceNew: true,
    });
    const received = (client: typeof socket) =>
      new Promise<BoardFrame>((resolve) => client.once('board.frame', (frame: BoardFrame) => resolve(frame)));
    try {
      await Promise.all([polling, socket].map((c) => new Promise((r) => c.once('connect', () => r(null)))));
      const viaPolling = received(polling);
      const viaWebSocket = received(socket);
      server.app.board.teamUpdated(row(7, 5_000));
      const [a, b] = await Promise.all([viaPolling, viaWebSocket]);
      expect(a).toEqual(b);
      expect(decodeBoardFrame(a).teams).toEqual([row(7, 5_000)]);
    } finally {
      polling.close();
      socket.close();
    }
  });
});
