import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { LEVELS, USER_TYPES } from '@concurso/shared';
import {
  connectSocket,
  createContest,
  createTeam,
  createUser,
  freePort,
  login,
  nextEvent,
  startTestServer,
  type TestServer,
} from './helpers.js';

/** Polls `check` every 100 ms until it answers true, for at most `ms` (ms); answers the last result. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A process that loses Redis says so on `/api/health` and recovers by itself when it returns
 * (issue 6, several server processes). The test stops a Redis of its own, on its own port, so the
 * other tests' Redis is never touched. (MySQL is shared by every test file, so its outage is not
 * staged here.)
 */
describe('losing Redis and getting it back', () => {
  let redis: ChildProcess | undefined;
  let redisPort: number;
  let server: TestServer;

  const startRedis = async () => {
    redis = spawn(
      'redis-server',
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    const up = await eventually(
      () =>
        new Promise<boolean>((resolve) => {
          const socket = createServer().listen(redisPort, '127.0.0.1', () =>
            socket.close(() => resolve(false)),
          );
          socket.on('error', () => resolve(true)); // the port is taken: redis is listening
        }),
      10_000,
    );
    if (!up) throw new Error('redis-server did not start');
  };
  const stopRedis = async () => {
    const child = redis;
    redis = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGKILL');
    });
  };
  const health = async () => {
    const res = await fetch(`${server.url}/api/health`);
    return { status: res.status, body: (await res.json()) as { data: { database: string; redis: string } } };
  };

  beforeAll(async () => {
    redisPort = await freePort();
    await startRedis();
    server = await startTestServer({ redisUrl: `redis://127.0.0.1:${redisPort}` });
  });
  afterAll(async () => {
    await server?.close();
    await stopRedis();
  });

  it('reports Redis down with 503, keeps serving, and is healthy again once Redis is back', async () => {
    expect(await health()).toMatchObject({ status: 200, body: { data: { database: 'ok', redis: 'ok' } } });

    await stopRedis();
    const down = await eventually(async () => (await health()).status === 503, 10_000);
    expect(down).toBe(true);
    expect((await health()).body.data).toEqual({ database: 'ok', redis: 'down' });

    // Without Redis the process still answers and still pushes to its own screens.
    await createUser(server.orm, USER_TYPES.judge, 'juez_sin_redis', 'clave-juez');
    const token = await login(server.app, 'juez_sin_redis', 'clave-juez');
    const contest = await createContest(server.orm);
    const team = await createTeam(server.orm, contest.id, LEVELS.basico, 'Los Resilientes');
    const screen = await connectSocket(server.url, token, [LEVELS.basico]);
    try {
      const pushed = nextEvent(screen, 'team.updated');
      const toggle = await fetch(`${server.url}/api/descalificarTeam/${team.id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(toggle.status).toBe(200);
      expect(await pushed).toMatchObject({ id: team.id, status_team: { id: 2 } });
    } finally {
      screen.close();
    }

    await startRedis();
    const back = await eventually(async () => (await health()).status === 200, 15_000);
    expect(back).toBe(true);
    expect((await health()).body.data).toEqual({ database: 'ok', redis: 'ok' });
  });
});
