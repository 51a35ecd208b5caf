import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVELS, USER_TYPES } from '@concurso/shared';
import {
  connectSocket,
  createContest,
  createTeam,
  eventually,
  type RedisInstance,
  signIn,
  startRedis,
  startTestServer,
  type TestServer,
  nextRow,
} from '@concurso/testkit';

/**
 * A process that loses Redis says so on `/api/health` and recovers by itself when it returns
 * (several server processes). The test stops a Redis of its own, on its own port, so the
 * other tests' Redis is never touched. (MySQL is shared by every test file, so its outage is not
 * staged here.)
 */
describe('losing Redis and getting it back', () => {
  let redis: RedisInstance;
  let server: TestServer;

  const health = async () => {
    const res = await fetch(`${server.url}/api/health`);
    return { status: res.status, body: (await res.json()) as { data: { database: string; redis: string } } };
  };

  beforeAll(async () => {
    redis = await startRedis();
    server = await startTestServer({ redisUrl: redis.url });
  });
  afterAll(async () => {
    await server?.close();
    await redis?.destroy();
  });

  it('reports Redis down with 503, keeps serving, and is healthy again once Redis is back', async () => {
    // The Redis link connects in the background after the server listens: on a busy machine the first
    // health check may come before it is ready (seen in CI: 'down' 37 ms after start).
    expect(await eventually(async () => (await health()).status === 200, 10_000)).toBe(true);
    expect(await health()).toMatchObject({ status: 200, body: { data: { database: 'ok', redis: 'ok' } } });

    await redis.kill();
    const down = await eventually(async () => (await health()).status === 503, 10_000);
    expect(down).toBe(true);
    expect((await health()).body.data).toEqual({ database: 'ok', redis: 'down' });

    // Without Redis the process still answers and still pushes to its own screens.
    const token = await signIn(server, USER_TYPES.judge, 'juez_sin_redis', 'clave-juez');
    const contest = await createContest(server.orm);
    const team = await createTeam(server.orm, contest.id, LEVELS.basico, 'Los Resilientes');
    const screen = await connectSocket(server.url, token, [LEVELS.basico]);
    try {
      const pushed = nextRow(screen, (row) => row.id === team.id);
      const toggle = await fetch(`${server.url}/api/descalificarTeam/${team.id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(toggle.status).toBe(200);
      expect(await pushed).toMatchObject({ id: team.id, status_team: { id: 2 } });
    } finally {
      screen.close();
    }

    await redis.start();
    const back = await eventually(async () => (await health()).status === 200, 15_000);
    expect(back).toBe(true);
    expect((await health()).body.data).toEqual({ database: 'ok', redis: 'ok' });
  });
});
