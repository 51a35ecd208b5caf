import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, USER_TYPES } from '@concurso/shared';
import { connectSocket, createUser, login, startTestServer, type TestServer } from '@concurso/testkit';

describe('auth (docs/spec.md section 7, docs/design.md sections 4 and 5)', () => {
  let server: TestServer;
  let admin: { username: string; password: string };
  let judge: { username: string; password: string };

  beforeAll(async () => {
    server = await startTestServer();
    admin = (await createUser(server.orm, USER_TYPES.admin, 'admin_t', 'clave-admin')) as typeof admin;
    judge = (await createUser(server.orm, USER_TYPES.judge, 'juez_t', 'clave-juez')) as typeof judge;
  });
  afterAll(async () => server?.close());

  it('logs in with the right password and answers a bearer token', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: admin.username, password: admin.password },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token_type).toBe('bearer');
    expect(body.expires_in).toBeGreaterThan(0);
    expect(body.access_token.split('.')).toHaveLength(3);
  });

  it('refuses a wrong password and an unknown user with the same 401 message', async () => {
    for (const payload of [
      { username: admin.username, password: 'otra' },
      { username: 'nadie', password: 'otra' },
    ]) {
      const res = await server.app.inject({ method: 'POST', url: '/api/auth/login', payload });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ success: false, message: MESSAGES.loginInvalid });
    }
  });

  it('answers 422 with a Spanish message per missing field', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: ' ' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ username: [MESSAGES.required], password: [MESSAGES.required] });
  });

  it('answers a participant with a wrong password as any wrong password, and 403 only with the right one', async () => {
    const participant = await createUser(server.orm, USER_TYPES.participant, 'alumno_t', null);
    const guess = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: participant.username, password: 'cualquiera' },
    });
    const stranger = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'nadie_registrado', password: 'cualquiera' },
    });
    // The answer must not tell that this username exists.
    expect([guess.statusCode, guess.json().message]).toEqual([401, MESSAGES.loginInvalid]);
    expect(stranger.json()).toEqual(guess.json());
    // A participant who somehow has a password (set in the database) gets the Spanish 403.
    await createUser(server.orm, USER_TYPES.participant, 'alumno_con_clave', 'Clave-Alumno-2026');
    const right = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'alumno_con_clave', password: 'Clave-Alumno-2026' },
    });
    expect([right.statusCode, right.json().message]).toEqual([403, MESSAGES.participantRefused]);
  });

  it('stores passwords as argon2id hashes', async () => {
    const rows = await server.orm.em
      .fork()
      .execute<Array<{ password: string }>>('select password from users where username = ?', [
        admin.username,
      ]);
    expect(rows[0]!.password).toMatch(/^\$argon2id\$/);
  });

  it('answers me with the session user and bool true', async () => {
    const token = await login(server.app, judge.username, judge.password);
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      username: judge.username,
      types_users_id: USER_TYPES.judge,
      bool: true,
    });
    expect(res.json()).not.toHaveProperty('password');
  });

  it('answers 401 to anonymous and to a forged token', async () => {
    const anon = await server.app.inject({ method: 'GET', url: '/api/teamAttempts' });
    expect(anon.statusCode).toBe(401);
    expect(anon.json().success).toBe(false);
    const forged = await server.app.inject({
      method: 'GET',
      url: '/api/teamAttempts',
      headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.x' },
    });
    expect(forged.statusCode).toBe(401);
  });

  it('answers 403 to a judge on an admin-only route', async () => {
    const token = await login(server.app, judge.username, judge.password);
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/generateAgentKey/1',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(MESSAGES.forbidden);
  });

  it('revokes the token for good on logout, for REST and for new and open sockets', async () => {
    const token = await login(server.app, admin.username, admin.password);
    const socket = await connectSocket(server.url, token);
    const disconnected = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));

    const out = await server.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.statusCode).toBe(200);
    await disconnected;

    const me = await server.app.inject({
      method: 'POST',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode).toBe(401);
    await expect(connectSocket(server.url, token)).rejects.toThrow(/unauthorized/);
  });

  it('refuses a socket without a token or with a bad one', async () => {
    await expect(connectSocket(server.url, '')).rejects.toThrow(/unauthorized/);
    await expect(connectSocket(server.url, 'not-a-jwt')).rejects.toThrow(/unauthorized/);
  });
});

describe('login rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ loginRateLimitMax: 3 });
  });
  afterAll(async () => server?.close());

  it('answers 429 with a Spanish message after the allowed tries', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await server.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'x', password: 'y' },
      });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect(last!.json()).toMatchObject({ success: false, message: MESSAGES.loginRateLimited });
  });
});
