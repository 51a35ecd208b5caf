import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mysql from 'mysql2/promise';
import { LEVELS } from '@concurso/shared';
import { migrationsList } from '../../migrations/index.js';
import {
  connectSocket,
  startDeployment,
  testRedisUrl,
  within,
  type Deployment,
  type HttpApi,
  nextRow,
} from '@concurso/testkit';

/**
 * Several server processes behind one address (docs/design.md section 2): two real `npm start` server
 * processes on one database, fanning out through Redis. Started together, they migrate once; a toggle
 * made through the first reaches a socket connected to the second.
 */
describe('two server processes over Redis', () => {
  let deployment: Deployment;
  /** The first administrator, signed in on the first process. */
  let admin: HttpApi;

  beforeAll(async () => {
    deployment = await startDeployment({ processes: 2, redisUrl: testRedisUrl });
    admin = await deployment.admin();
  });
  afterAll(async () => deployment?.stop());

  it('migrated once and both report Redis on /api/health', async () => {
    for (const url of deployment.urls) {
      expect((await admin.on(url).call('/api/health')).data).toEqual({ database: 'ok', redis: 'ok' });
    }
    const conn = await mysql.createConnection({ uri: deployment.databaseUrl });
    try {
      const [migrations] = await conn.query('select name from mikro_orm_migrations');
      const [admins] = await conn.query('select count(*) as n from users where types_users_id = 1');
      expect((migrations as unknown[]).length).toBe(migrationsList.length);
      expect(Number((admins as Array<{ n: number }>)[0]!.n)).toBe(1);
    } finally {
      await conn.end();
    }
  });

  it('a toggle made through the first process reaches a socket on the second', async () => {
    await admin.createContest();
    const coach = await admin.createCoach('Dr. Iván Soto');
    const team = await admin.createTeam('Los Distribuidos', LEVELS.basico, coach);

    const screen = await connectSocket(deployment.urls[1]!, admin.token!, [LEVELS.basico]);
    try {
      // Only the block counts: the team's creation may still be on its way too.
      const blocked = nextRow(screen, (row) => row.id === team.id && row.status_team.id === 2, 10_000);
      await admin.call(`/api/descalificarTeam/${team.id}`);
      expect(await within(5_000, blocked)).toMatchObject({ id: team.id, status_team: { id: 2 } });
    } finally {
      screen.close();
    }
  });

  it('a key regenerated through the first process stops working on the second at once', async () => {
    const second = deployment.urls[1]!;
    const team = (await admin.call<{ basico: Array<{ id: number }> }>('/api/teamAttempts')).basico[0]!;
    const oldKey = await admin.generateAgentKey(team.id);
    const heartbeat = (key: string) =>
      fetch(`${second}/api/agent/heartbeat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: '{}',
      }).then((r) => r.status);
    expect(await heartbeat(oldKey)).toBe(200); // the second process caches the key for 5 s now
    const cachedAt = Date.now();
    await admin.generateAgentKey(team.id);
    // The cache alone would keep the old key until cachedAt + 5 s: only the relayed notice ends it sooner.
    let status = await heartbeat(oldKey);
    while (status === 200 && Date.now() - cachedAt < 3_000) {
      await new Promise((r) => setTimeout(r, 20));
      status = await heartbeat(oldKey);
    }
    expect(status).toBe(401);
  });
});
