import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SOCKET_PATH, USER_TYPES, type BoardTeam } from '@concurso/shared';
import { signIn, startTestServer, type TestServer } from '@concurso/testkit';

/**
 * A screen that stops reading (DESIGN.md section 6, the push channel under load): the server must not
 * queue every frame for it, and once it reads again it must end up with the current board.
 */
describe('push to a screen that reads slower than the pushes come', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer();
    token = await signIn(server, USER_TYPES.judge, 'juez_lento', 'clave-juez');
  });
  afterAll(async () => server?.close());

  /** A Socket.IO screen over a bare ws socket, so the test can stop and resume its reading. */
  const rawScreen = async () => {
    const url = `${server.url.replace('http', 'ws')}${SOCKET_PATH}/?EIO=4&transport=websocket`;
    const ws = new WebSocket(url);
    const rows: BoardTeam[] = [];
    let frames = 0;
    await new Promise<void>((resolve, reject) => {
      ws.on('error', reject);
      ws.on('message', (data) => {
        const text = String(data);
        if (text.startsWith('0')) ws.send(`40${JSON.stringify({ token })}`);
        else if (text.startsWith('40')) resolve();
        else if (text === '2') ws.send('3');
        else if (text.startsWith('42')) {
          const [name, payload] = JSON.parse(text.slice(2)) as [string, BoardTeam | BoardTeam[]];
          if (name === 'team.updated' || name === 'teams.updated') {
            frames++;
            rows.push(...(Array.isArray(payload) ? payload : [payload]));
          }
        }
      });
    });
    return { ws, rows, frames: () => frames };
  };

  it('keeps only the newest row per team for it and sends them when it reads again', async () => {
    const screen = await rawScreen();
    const TEAMS = 200;
    const WINDOWS = 300;
    const row = (id: number, version: number): BoardTeam => ({
      id,
      name: `Equipo ${id} `.padEnd(300, '·'),
      levels_id: 1 + (id % 3),
      number_attempts: version,
      status_team: { id: 1, status: 'Activo' },
      agent_online: true,
      version,
    });
    try {
      screen.ws.pause();
      // 300 frames of ~100 KB: far more than the kernel buffers of a socket nobody reads.
      for (let version = 1; version <= WINDOWS; version++) {
        for (let id = 1; id <= TEAMS; id++) server.app.board.teamUpdated(row(id, version));
        server.app.board.flush();
        await new Promise((r) => setTimeout(r, 2));
      }
      screen.ws.resume();
      const newest = () => {
        const latest = new Map<number, number>();
        for (const r of screen.rows) latest.set(r.id, Math.max(latest.get(r.id) ?? 0, r.version));
        return latest;
      };
      const deadline = Date.now() + 15_000;
      const current = () => {
        const latest = newest();
        return latest.size === TEAMS && [...latest.values()].every((v) => v === WINDOWS);
      };
      while (Date.now() < deadline && !current()) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const latest = newest();
      expect(latest.size).toBe(TEAMS);
      expect([...latest.values()].every((v) => v === WINDOWS)).toBe(true);
      // Without conflation it would get all 300 frames, one per window.
      expect(screen.frames()).toBeLessThan(WINDOWS / 2);
    } finally {
      screen.ws.terminate();
    }
  });
});
