import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { LEVELS } from '@concurso/shared';
import { dropDatabase } from '../src/db/database.js';
import { migrationsList } from '../../migrations/index.js';
import { connectSocket, freePort } from './helpers.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

const SERVER_URL = (process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/').replace(/\/[^/]*$/, '/');
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Resolves with `promise`, or rejects after `ms` (ms). */
const within = <T>(ms: number, promise: Promise<T>) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`nothing in ${ms} ms`)), ms)),
  ]);

/**
 * Several server processes behind one address (DESIGN.md section 2): two real `npm start` server
 * processes on one database, fanning out through Redis. Started together, they migrate once; a toggle
 * made through the first reaches a socket connected to the second.
 */
describe('two server processes over Redis', () => {
  const databaseUrl = `${SERVER_URL}concurso_test_${randomBytes(5).toString('hex')}`;
  const processes: ServerProcess[] = [];
  const urls: string[] = [];
  let dataDir: string;

  const startServer = async (port: number) => {
    const server = await startServerProcess({
      port,
      env: {
        DATABASE_URL: databaseUrl,
        REDIS_URL,
        DATA_DIR: dataDir,
        JWT_SECRET: 'secreto-compartido-de-prueba-0123456789abcdef',
        ADMIN_USERNAME: 'admin',
        ADMIN_PASSWORD: 'Clave-Jurado-Multi-2026',
        LOG_LEVEL: 'warn',
      },
    });
    processes.push(server);
    return server.url;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'concurso-multi-'));
    const ports = [await freePort(), await freePort()];
    urls.push(...(await Promise.all(ports.map(startServer))));
  });
  afterAll(async () => {
    await Promise.all(processes.map((server) => server.stop()));
    await dropDatabase(databaseUrl);
    await rm(dataDir, { recursive: true, force: true });
  });

  const api = async (base: string, url: string, token?: string, body?: unknown) => {
    const res = await fetch(`${base}${url}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  it('migrated once and both report Redis on /api/health', async () => {
    for (const url of urls) {
      expect((await api(url, '/api/health')).data).toEqual({ database: 'ok', redis: 'ok' });
    }
    const conn = await mysql.createConnection({ uri: databaseUrl });
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
    const [first, second] = urls as [string, string];
    const token = (
      await api(first, '/api/auth/login', undefined, {
        username: 'admin',
        password: 'Clave-Jurado-Multi-2026',
      })
    ).access_token as string;
    await api(first, '/api/createContest', token, { date: '2026-11-21' });
    const coach = (
      await api(first, '/api/createCoach', token, { name: 'Dr. Iván Soto', educationalLevel: 'Doctorado' })
    ).data.id;
    const team = (
      await api(first, '/api/createTeam', token, {
        name: 'Los Distribuidos',
        levels_id: LEVELS.basico,
        coaches_id: coach,
      })
    ).data;

    const screen = await connectSocket(second, token, [LEVELS.basico]);
    try {
      // Only the block counts: the team's creation may still be on its way too.
      const blocked = new Promise((resolve) =>
        screen.on('team.updated', (row) => row.id === team.id && row.status_team.id === 2 && resolve(row)),
      );
      await api(first, `/api/descalificarTeam/${team.id}`, token);
      expect(await within(5_000, blocked)).toMatchObject({ id: team.id, status_team: { id: 2 } });
    } finally {
      screen.close();
    }
  });

  it('a key regenerated through the first process stops working on the second at once', async () => {
    const [first, second] = urls as [string, string];
    const token = (
      await api(first, '/api/auth/login', undefined, {
        username: 'admin',
        password: 'Clave-Jurado-Multi-2026',
      })
    ).access_token as string;
    const team = (await api(first, '/api/teamAttempts', token)).basico[0] as { id: number };
    const oldKey = (await api(first, `/api/generateAgentKey/${team.id}`, token, {})).data.key as string;
    const heartbeat = (key: string) =>
      fetch(`${second}/api/agent/heartbeat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: '{}',
      }).then((r) => r.status);
    expect(await heartbeat(oldKey)).toBe(200); // the second process caches the key for 5 s now
    const cachedAt = Date.now();
    await api(first, `/api/generateAgentKey/${team.id}`, token, {});
    // The cache alone would keep the old key until cachedAt + 5 s: only the relayed notice ends it sooner.
    let status = await heartbeat(oldKey);
    while (status === 200 && Date.now() - cachedAt < 3_000) {
      await new Promise((r) => setTimeout(r, 20));
      status = await heartbeat(oldKey);
    }
    expect(status).toBe(401);
  });
});
