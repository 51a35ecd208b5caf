import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { MESSAGES } from '@concurso/shared';
import { SERVER_ENTRY, ensureServerBuilt, startTestServer, type TestServer } from '@concurso/testkit';

const run = promisify(execFile);
const BIG = 'console.log("concurso");\n'.repeat(200);

describe('serving the web client, health and OpenAPI', () => {
  let server: TestServer;

  beforeAll(async () => {
    const web = await mkdtemp(path.join(os.tmpdir(), 'concurso-web-'));
    await mkdir(path.join(web, 'assets'));
    await writeFile(
      path.join(web, 'index.html'),
      '<!doctype html><title>Concurso</title><div id="root"></div>',
    );
    await writeFile(path.join(web, 'assets', 'app.js'), 'console.log(1)');
    await writeFile(path.join(web, 'assets', 'big.js'), BIG);
    server = await startTestServer({ webDistDir: web });
  });
  afterAll(async () => server?.close());

  it('answers client routes with index.html so a reload of /homeJuez works', async () => {
    for (const url of ['/', '/homeJuez', '/usersJuez']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<div id="root">');
    }
    const asset = await server.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(asset.body).toBe('console.log(1)');
    // Large files go out gzip-compressed to browsers that accept it.
    const page = await server.app.inject({
      method: 'GET',
      url: '/assets/big.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(page.rawPayload).toString()).toBe(BIG);
  });

  it('answers unknown API paths with the JSON 404, never the page', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/noExiste' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: MESSAGES.notFound });
  });

  it('reports the database on /api/health to anonymous callers', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ database: 'ok', redis: 'off' });
  });

  it('describes the API in OpenAPI, with the spec paths', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/auth/login',
        '/api/auth/me',
        '/api/auth/logout',
        '/api/teamAttempts',
        '/api/descalificarTeam/{id}',
        '/api/generateAgentKey/{teamId}',
        '/api/agent/attempts',
      ]),
    );
    // Statuses with a body of their own are documented with it (the route map's `replies`).
    const health = res.json().paths['/api/health'].get.responses;
    expect(Object.keys(health)).toEqual(expect.arrayContaining(['200', '503']));
    expect(JSON.stringify(health['503'])).toContain('redis');
  });
});

describe('npm start without MySQL', () => {
  it('says so in one line and exits 1', async () => {
    // What npm start runs: the compiled server (built once per run by the global setup).
    await ensureServerBuilt();
    // A port that nothing listens on: bind one, note it, close it.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const error = await run(process.execPath, [SERVER_ENTRY], {
      env: {
        ...process.env,
        DATABASE_URL: `mysql://root@127.0.0.1:${port}/concurso`,
        PORT: '0',
        DATA_DIR: os.tmpdir(),
      },
      timeout: 30_000,
    }).then(
      () => null,
      (err: { code: number; stderr: string; stdout: string }) => err,
    );
    expect(error).not.toBeNull();
    expect(error!.code).toBe(1);
    const lines = error!.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^No se pudo conectar a MySQL en mysql:\/\/root@127\.0\.0\.1:\d+\/concurso .*DATABASE_URL\.$/,
    );
  });
});
