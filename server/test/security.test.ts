import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as ioClient } from 'socket.io-client';
import { LEVELS, MESSAGES, SOCKET_PATH, USER_TYPES, type BoardTeam } from '@concurso/shared';
import {
  connectSocket,
  createContest,
  createTeam,
  createUser,
  eventually,
  signIn,
  signInStaff,
  startTestServer,
  type TestServer,
  WEB_DIST_DIR,
  nextRow,
  collectRows,
} from '@concurso/testkit';
import { ConfigError, loadConfig, withJwtSecret } from '../src/config.js';
import type { JwtClaims } from '../src/plugins/access.js';

/** Live-contest resilience and security: headers, HEAD, tokens, login limits, handshake, config. */

type Headers = Record<string, string | string[] | number | undefined>;

/** The directives of a Content-Security-Policy header, by name. */
function cspDirectives(headers: Headers): Map<string, string[]> {
  const csp = String(headers['content-security-policy'] ?? '');
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
}

/** The security headers every answer (web page or API) must carry over plain HTTP. */
function expectSecurityHeaders(headers: Headers) {
  const csp = cspDirectives(headers);
  expect(csp.get('script-src')).toBeDefined();
  expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  // A lab server answers over plain HTTP: upgrading its requests to https:// would break the web.
  expect(csp.has('upgrade-insecure-requests')).toBe(false);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBeTruthy();
  expect(headers['strict-transport-security']).toBeUndefined();
}

/** A small valid PDF (one empty page). */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj ' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

describe('security headers (helmet)', () => {
  let server: TestServer;
  let proxied: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer({ webDistDir: WEB_DIST_DIR });
    proxied = await startTestServer({ trustProxy: ['127.0.0.1'] });
    admin = await signIn(server, USER_TYPES.admin, 'admin_headers', 'clave-admin');
  });
  afterAll(async () => {
    await server?.close();
    await proxied?.close();
  });

  it('sends a strict CSP, nosniff, frame-ancestors none and a Referrer-Policy with the web page and the API', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expectSecurityHeaders(page.headers);

    const health = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expectSecurityHeaders(health.headers);

    // An error answer of the API too.
    const anonymous = await server.app.inject({ method: 'GET', url: '/api/teamAttempts' });
    expect(anonymous.statusCode).toBe(401);
    expectSecurityHeaders(anonymous.headers);
  });

  it('sends HSTS only when a trusted proxy says the request came over HTTPS', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    // No proxy trusted: anyone can send X-Forwarded-Proto, so it is ignored.
    const untrusted = await server.app.inject({ method: 'GET', url: '/api/health', headers: https });
    expect(untrusted.headers['strict-transport-security']).toBeUndefined();
    const plain = await proxied.app.inject({ method: 'GET', url: '/api/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const tls = await proxied.app.inject({ method: 'GET', url: '/api/health', headers: https });
    expect(tls.headers['strict-transport-security']).toMatch(/max-age=[1-9]\d*/);
  });

  it('serves an exercise PDF inline with nosniff and an encoded filename', async () => {
    await createContest(server.orm);
    const name = 'Problema Ñandú 1.pdf';
    const form = new FormData();
    form.append('levels_id', String(LEVELS.basico));
    form.append('path', new Blob([new Uint8Array(PDF)], { type: 'application/pdf' }), name);
    const uploaded = await fetch(`${server.url}/api/createExercise`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(uploaded.status).toBe(200);
    const id = ((await uploaded.json()) as { data: { id: number } }).data.id;

    const res = await server.app.inject({
      method: 'GET',
      url: `/api/exercisePdf/${id}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const disposition = String(res.headers['content-disposition']);
    const match = /^inline; filename\*=UTF-8''([^\s;"]+)$/.exec(disposition);
    expect(match, disposition).not.toBeNull();
    expect(decodeURIComponent(match![1]!)).toBe(name);
  });
});

describe('HEAD never runs a GET that changes data', () => {
  let server: TestServer;
  let admin: string;
  const count = async (sql: string, params: unknown[]) =>
    Number((await server.orm.em.fork().execute<Array<{ n: number }>>(sql, params))[0]!.n);

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server, USER_TYPES.admin, 'admin_head', 'clave-admin');
  });
  afterAll(async () => server?.close());

  it('HEAD /api/deleteSchool/{id} as an admin leaves the school', async () => {
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/createSchool',
      payload: { name: 'CUCEI' },
      headers: { authorization: `Bearer ${admin}` },
    });
    const id = created.json().data.id as number;
    const head = await server.app.inject({
      method: 'HEAD',
      url: `/api/deleteSchool/${id}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(head.statusCode).not.toBe(200);
    expect(head.statusCode).toBeGreaterThanOrEqual(400);
    expect(await count('select count(*) as n from schools where id = ?', [id])).toBe(1);
    // The same id with GET does delete it: the HEAD above aimed at a real row.
    const get = await server.app.inject({
      method: 'GET',
      url: `/api/deleteSchool/${id}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(get.statusCode).toBe(200);
    expect(await count('select count(*) as n from schools where id = ?', [id])).toBe(0);
  });

  it('HEAD /api/descalificarTeam/{id} as an admin leaves the team status', async () => {
    const contest = await createContest(server.orm);
    const team = await createTeam(server.orm, contest.id, LEVELS.basico);
    const status = async () =>
      Number(
        (
          await server.orm.em
            .fork()
            .execute<Array<{ s: number }>>('select status_team_id as s from teams where id = ?', [team.id])
        )[0]!.s,
      );
    expect(await status()).toBe(1);
    const head = await server.app.inject({
      method: 'HEAD',
      url: `/api/descalificarTeam/${team.id}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(head.statusCode).not.toBe(200);
    expect(head.statusCode).toBeGreaterThanOrEqual(400);
    expect(await status()).toBe(1);
    const get = await server.app.inject({
      method: 'GET',
      url: `/api/descalificarTeam/${team.id}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(get.statusCode).toBe(200);
    expect(await status()).toBe(2);
  });
});

/**
 * Opens a socket.io-client with a raw handshake `auth` and answers 'connected' or the connect_error
 * message.
 */
function handshake(url: string, auth: Record<string, unknown>): Promise<string> {
  const socket = ioClient(url, {
    path: SOCKET_PATH,
    auth,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  return new Promise((resolve) => {
    socket.once('connect', () => {
      socket.close();
      resolve('connected');
    });
    socket.once('connect_error', (err) => {
      socket.close();
      resolve(err.message);
    });
  });
}

describe('tokens must carry a numeric sub, exp and ver (REST and socket)', () => {
  let server: TestServer;
  let judge: { id: number; username: string };
  const claims = () => ({ sub: String(judge.id), typ: USER_TYPES.judge, jti: randomUUID(), ver: 0 });
  const withoutVer = ({ sub, typ, jti }: ReturnType<typeof claims>) => ({ sub, typ, jti });
  const me = (token: string) =>
    server.app.inject({ method: 'POST', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    server = await startTestServer();
    const user = await createUser(server.orm, USER_TYPES.judge, 'juez_tokens', 'clave-juez');
    judge = { id: user.id, username: user.username };
  });
  afterAll(async () => server?.close());

  it('accepts a well-formed token signed with the secret (the control)', async () => {
    const token = server.app.jwt.sign(claims(), { expiresIn: 600 });
    const res = await me(token);
    expect(res.statusCode).toBe(200);
    expect(res.json().username).toBe(judge.username);
    expect(await handshake(server.url, { token })).toBe('connected');
  });

  it.each([
    ['sub "abc"', () => ({ ...claims(), sub: 'abc' }), true],
    // MariaDB would read '<id>x' as the number <id>: the claim itself must be refused.
    ['sub "<id>x"', () => ({ ...claims(), sub: `${judge.id}x` }), true],
    ['no ver', () => withoutVer(claims()), true],
    ['no exp', () => claims(), false],
  ] as const)(
    'refuses a token with %s: 401, never 500, and socket unauthorized',
    async (_, payload, withExp) => {
      // Signed with the real secret (malformed claims on purpose); without options the signer adds no exp.
      const body = payload() as unknown as JwtClaims;
      const token = withExp ? server.app.jwt.sign(body, { expiresIn: 600 }) : server.app.jwt.sign(body);
      const decoded = server.app.jwt.decode<Record<string, unknown>>(token)!;
      expect('exp' in decoded).toBe(withExp);
      expect('ver' in decoded).toBe('ver' in body);

      const res = await me(token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ success: false, message: MESSAGES.unauthorized });
      expect(await handshake(server.url, { token })).toBe('unauthorized');
    },
  );
});

describe('login limits per address', () => {
  const wrong = (server: TestServer, username: string, forwardedFor?: string) =>
    server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password: 'no-es-la-clave-1' },
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    });

  describe('with no proxy trusted', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ loginRateLimitMax: 3 });
    });
    afterAll(async () => server?.close());

    it('limits the TCP peer, whatever X-Forwarded-For says', async () => {
      const statuses: number[] = [];
      let last;
      for (let i = 1; i <= 5; i++) {
        last = await wrong(server, `nadie_${i}`, `203.0.113.${i}`);
        statuses.push(last.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      expect(last!.json()).toEqual({ success: false, message: MESSAGES.loginRateLimited });
    });
  });

  describe('behind a trusted proxy', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ loginRateLimitMax: 3, trustProxy: ['127.0.0.1'] });
    });
    afterAll(async () => server?.close());

    it('limits the forwarded client address, each with its own count', async () => {
      const statuses: number[] = [];
      for (let i = 1; i <= 4; i++) statuses.push((await wrong(server, `a_${i}`, '203.0.113.5')).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429]);
      const limited = await wrong(server, 'a_5', '203.0.113.5');
      expect(limited.json().message).toBe(MESSAGES.loginRateLimited);
      // A client cannot dodge it by prepending an address: the proxy appends the real one last.
      expect((await wrong(server, 'a_6', '198.51.100.1, 203.0.113.5')).statusCode).toBe(429);
      // Another client behind the same proxy is not limited.
      expect((await wrong(server, 'b_1', '203.0.113.6')).statusCode).toBe(401);
      expect((await wrong(server, 'b_2', '203.0.113.6')).statusCode).toBe(401);
    });
  });
});

// Limits per account from one address, and the jury's sign-in from another address: login-lockout.test.ts.

describe('socket handshake levels', () => {
  let server: TestServer;
  let judge: string;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ admin, judge } = await signInStaff(server, 'niveles'));
  });
  afterAll(async () => server?.close());

  it.each([
    ['100,000 levels', () => ({ levels: Array.from({ length: 100_000 }, (_, i) => i + 1) })],
    ['a level that is not a number', () => ({ levels: ['x'] })],
    ['a level that does not exist', () => ({ levels: [999] })],
    ['an extra key', () => ({ levels: [LEVELS.basico], room: 'admin' })],
    ['an empty list', () => ({ levels: [] })],
  ] as const)('refuses %s with invalid', async (_, extra) => {
    expect(await handshake(server.url, { token: judge, ...extra() })).toBe('invalid');
  });

  it("follows only the level asked for: levels [2] gets level 2's pushes and not level 1's", async () => {
    const contest = await createContest(server.orm);
    const basic = await createTeam(server.orm, contest.id, LEVELS.basico, 'Los Básicos');
    const middle = await createTeam(server.orm, contest.id, LEVELS.intermedio, 'Los Intermedios');
    const followsMiddle = await connectSocket(server.url, judge, [LEVELS.intermedio]);
    const followsBasic = await connectSocket(server.url, judge, [LEVELS.basico]);
    try {
      const rows: BoardTeam[] = collectRows(followsMiddle);
      const basicPushed = nextRow(followsBasic, (row) => row.id === basic.id);
      const toggle = (id: number) =>
        server.app.inject({
          method: 'GET',
          url: `/api/descalificarTeam/${id}`,
          headers: { authorization: `Bearer ${admin}` },
        });
      expect((await toggle(basic.id)).statusCode).toBe(200);
      // The level 1 push did go out, to the socket following level 1.
      expect(await basicPushed).toMatchObject({ id: basic.id });
      expect((await toggle(middle.id)).statusCode).toBe(200);
      expect(await eventually(async () => rows.some((r) => r.id === middle.id), 3_000)).toBe(true);
      await new Promise((r) => setTimeout(r, 300));
      expect(rows.map((r) => r.levels_id)).toEqual(rows.map(() => LEVELS.intermedio));
    } finally {
      followsMiddle.close();
      followsBasic.close();
    }
  });
});

describe('createMember racing with one student code', () => {
  let server: TestServer;
  let admin: string;
  let career: number;
  const call = (url: string, payload: unknown) =>
    server.app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      headers: { authorization: `Bearer ${admin}` },
    });
  const ok = async (url: string, payload: unknown) => {
    const res = await call(url, payload);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json().data.id as number;
  };
  const teamsWithCode = async (code: string) =>
    (
      await server.orm.em
        .fork()
        .execute<Array<{ teams_id: number; contests_id: number }>>(
          'select teams_id, contests_id from members where code = ? order by id',
          [code],
        )
    ).map((r) => ({ team: Number(r.teams_id), contest: Number(r.contests_id) }));

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server, USER_TYPES.admin, 'admin_codigos', 'clave-admin');
    const school = await ok('/api/createSchool', { name: 'CUCEI' });
    const dep = await ok('/api/createDepartament', { name: 'Computación', type: 0, schools_id: school });
    career = await ok('/api/createCareer', { name: 'Ingeniería en Computación', departaments_id: dep });
  });
  afterAll(async () => server?.close());

  it('10 racing pairs: one registers the code, the other gets the 409 naming that team', async () => {
    const contest = await createContest(server.orm, '2026-11-21');
    const teams = [
      await createTeam(server.orm, contest.id, LEVELS.basico, 'Los Lambdas'),
      await createTeam(server.orm, contest.id, LEVELS.intermedio, 'Los Punteros'),
    ] as const;
    const earlier = await createContest(server.orm, '2026-05-16');
    const elsewhere = await createTeam(server.orm, earlier.id, LEVELS.basico, 'Los de Mayo');
    const member = (code: string, teamId: number) => [
      { code, name: 'Ana Sofía Pérez', semester: 5, teams_id: teamId, careers_id: career },
    ];

    for (let pair = 0; pair < 10; pair++) {
      const code = `21900${String(pair).padStart(4, '0')}`;
      const answers = await Promise.all(teams.map((t) => call('/api/createMember', member(code, t.id))));
      const statuses = answers.map((a) => a.statusCode);
      expect([...statuses].sort(), `pair ${pair}: ${answers.map((a) => a.body).join(' | ')}`).toEqual([
        200, 409,
      ]);
      const winner = teams[statuses.indexOf(200)]!;
      const loser = answers[statuses.indexOf(409)]!;
      expect(loser.json()).toEqual({
        success: false,
        message: `El código ${code} ya está registrado en el equipo "${winner.name}" de este concurso.`,
      });
      expect(await teamsWithCode(code)).toEqual([{ team: winner.id, contest: contest.id }]);

      // The same code in a team of another contest is fine.
      expect((await call('/api/createMember', member(code, elsewhere.id))).statusCode).toBe(200);
      expect(await teamsWithCode(code)).toEqual([
        { team: winner.id, contest: contest.id },
        { team: elsewhere.id, contest: earlier.id },
      ]);
    }
  });
});

describe('configuration (loadConfig)', () => {
  // A secret given, so a good configuration never writes one to DATA_DIR.
  const base = { JWT_SECRET: 'x'.repeat(48), DATA_DIR: path.join(os.tmpdir(), 'concurso-config-test') };
  const problem = (env: Record<string, string>): string => {
    try {
      loadConfig({ ...base, ...env });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as Error).message;
      expect(message).not.toContain('\n');
      return message;
    }
    throw new Error(`no ConfigError for ${JSON.stringify(env)}`);
  };

  it.each([
    ['TRUST_PROXY', 'not-an-ip', {}],
    ['TRUST_PROXY', '10.0.0.0/33', {}],
    ['PORT', '0x10', {}],
    ['PORT', '70000', {}],
    ['ADMIN_PASSWORD', '12345678', {}],
    ['ADMIN_PASSWORD', 'Norte-organizador-2026', { ADMIN_USERNAME: 'organizador' }],
  ] as const)('refuses %s=%s with one line naming it', (variable, value, env) => {
    expect(problem({ ...env, [variable]: value })).toContain(variable);
  });

  it('parses good values', () => {
    const config = loadConfig({
      ...base,
      TRUST_PROXY: '172.28.0.10, 10.0.0.0/8',
      PORT: '8080',
      ADMIN_USERNAME: 'organizador',
      ADMIN_PASSWORD: 'Clave-Jurado-Norte-7',
      LOGIN_ACCOUNT_LIMIT_MAX: '25',
    });
    expect(config).toMatchObject({
      trustProxy: ['172.28.0.10', '10.0.0.0/8'],
      port: 8080,
      adminUsername: 'organizador',
      adminPassword: 'Clave-Jurado-Norte-7',
      loginAccountLimitMax: 25,
      jwtSecret: base.JWT_SECRET,
    });
    // Unset: no proxy trusted.
    expect(loadConfig(base).trustProxy).toEqual([]);
  });

  it('writes no file while loading; the start keeps one secret in DATA_DIR across restarts', () => {
    const dataDir = path.join(os.tmpdir(), `concurso-config-secret-${process.pid}-${Date.now()}`);
    const loaded = loadConfig({ DATA_DIR: dataDir });
    expect(loaded.jwtSecret).toBeUndefined();
    expect(existsSync(dataDir)).toBe(false);
    try {
      const first = withJwtSecret(loaded).jwtSecret;
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(withJwtSecret(loadConfig({ DATA_DIR: dataDir })).jwtSecret).toBe(first);
      expect(withJwtSecret(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'y'.repeat(48) })).jwtSecret).toBe(
        'y'.repeat(48),
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
