import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, USER_TYPES, type SessionEndedPayload } from '@concurso/shared';
import {
  type BoardSocket,
  collect,
  connectSocket,
  createUser,
  login,
  nextEvent,
  type ServerPair,
  signIn,
  startServerPair,
  startTestServer,
  type TestServer,
} from '@concurso/testkit';

/**
 * A session ends (REST 401, and the open sockets get `session.ended` then are disconnected)
 * when the password or role changes, the user is deleted, the token is logged out or expires; and two
 * admins acting on each other at once never get a 500 nor leave the database without an admin.
 */

const NEW_PASSWORD = 'Otra-Clave-Segura-42';

/** Calls the API of `server` in-process; `token` undefined: anonymous. */
const callOf =
  (server: () => TestServer) =>
  (method: 'GET' | 'POST', url: string, token: string | undefined, payload?: unknown) =>
    server().app.inject({
      method,
      url,
      payload: payload as object,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

/** Resolves with the reason of the socket's disconnect, or rejects after `timeoutMs`. */
function disconnected(socket: BoardSocket, timeoutMs = 3_000): Promise<string> {
  if (!socket.connected) return Promise.resolve('already disconnected');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not disconnected within ${timeoutMs} ms`)), timeoutMs);
    socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}

/**
 * Waits for `socket` to get `session.ended` and then be disconnected by the server; answers the
 * payload. Both are watched from the start, so neither can be missed.
 */
async function sessionEnds(socket: BoardSocket, timeoutMs = 3_000): Promise<SessionEndedPayload> {
  const ended = nextEvent(socket, 'session.ended', timeoutMs);
  const closed = disconnected(socket, timeoutMs);
  const [payload, reason] = await Promise.all([ended, closed]);
  // The server closed it (socket.io-client will not reconnect), not a dropped transport.
  expect(reason).toBe('io server disconnect');
  return payload;
}

describe('sessions end with session.ended', () => {
  let server: TestServer;
  let admin: string;
  const call = callOf(() => server);
  const me = (token: string) => call('POST', '/api/auth/me', token);

  /** A judge signed in through the API with a socket open on every level. */
  const signedInJudge = async () => {
    const user = await createUser(server.orm, USER_TYPES.judge, undefined, 'Clave-Jurado-Norte-7');
    const token = await login(server.app, user.username, user.password!);
    const socket = await connectSocket(server.url, token);
    return { id: user.id, username: user.username, password: user.password!, token, socket };
  };
  const update = (judge: { id: number; username: string }, changes: object) =>
    call('POST', '/api/updateUser', admin, {
      id: judge.id,
      name: 'Juez de Prueba',
      username: judge.username,
      types_users_id: USER_TYPES.judge,
      ...changes,
    });
  const loginStatus = async (username: string, password: string) =>
    (await call('POST', '/api/auth/login', undefined, { username, password })).statusCode;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server, USER_TYPES.admin, 'admin_sesiones', 'clave-admin');
  });
  afterAll(async () => server?.close());

  it('a new password ends the old sessions (REST and socket); the new password signs in; others go on', async () => {
    const judge = await signedInJudge();
    const bystander = await signedInJudge();
    const bystanderEnded = collect(bystander.socket, 'session.ended');
    try {
      const ends = sessionEnds(judge.socket);
      expect((await update(judge, { password: NEW_PASSWORD })).statusCode).toBe(200);
      expect(await ends).toEqual({ reason: 'password' });
      const old = await me(judge.token);
      expect(old.statusCode).toBe(401);
      expect(old.json().message).toBe(MESSAGES.unauthorized);
      await expect(connectSocket(server.url, judge.token)).rejects.toThrow(/unauthorized/);

      expect(await loginStatus(judge.username, judge.password)).toBe(401);
      const fresh = await login(server.app, judge.username, NEW_PASSWORD);
      expect((await me(fresh)).statusCode).toBe(200);
      (await connectSocket(server.url, fresh)).close();

      // Another judge's session is untouched.
      expect(bystander.socket.connected).toBe(true);
      expect(bystanderEnded).toEqual([]);
      expect((await me(bystander.token)).statusCode).toBe(200);
    } finally {
      judge.socket.close();
      bystander.socket.close();
    }
  });

  it('saving a judge without a new password or role change keeps the session', async () => {
    const judge = await signedInJudge();
    const ended = collect(judge.socket, 'session.ended');
    try {
      expect((await update(judge, { name: 'Juez Renombrado', password: '' })).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
      expect(judge.socket.connected).toBe(true);
      expect(ended).toEqual([]);
      expect((await me(judge.token)).statusCode).toBe(200);
    } finally {
      judge.socket.close();
    }
  });

  it('a role change (judge to participant) ends the session with reason role', async () => {
    const judge = await signedInJudge();
    try {
      const ends = sessionEnds(judge.socket);
      expect((await update(judge, { types_users_id: USER_TYPES.participant })).statusCode).toBe(200);
      expect(await ends).toEqual({ reason: 'role' });
      expect((await me(judge.token)).statusCode).toBe(401);
      // A participant keeps no password: the old one no longer signs in.
      expect(await loginStatus(judge.username, judge.password)).toBe(401);
    } finally {
      judge.socket.close();
    }
  });

  it('a promotion (judge to admin) ends the session too; signing in again gives the admin rights', async () => {
    const judge = await signedInJudge();
    try {
      const ends = sessionEnds(judge.socket);
      expect((await update(judge, { types_users_id: USER_TYPES.admin })).statusCode).toBe(200);
      expect(await ends).toEqual({ reason: 'role' });
      expect((await me(judge.token)).statusCode).toBe(401);
      const fresh = await login(server.app, judge.username, judge.password);
      expect((await me(fresh)).json().types_users_id).toBe(USER_TYPES.admin);
      expect((await call('GET', '/api/getUsersAdmin', fresh)).statusCode).toBe(200);
    } finally {
      judge.socket.close();
    }
  });

  it('deleting the user ends the session with reason deleted', async () => {
    const judge = await signedInJudge();
    try {
      const ends = sessionEnds(judge.socket);
      expect((await call('GET', `/api/deleteUser/${judge.id}`, admin)).statusCode).toBe(200);
      expect(await ends).toEqual({ reason: 'deleted' });
      expect((await me(judge.token)).statusCode).toBe(401);
      expect(await loginStatus(judge.username, judge.password)).toBe(401);
    } finally {
      judge.socket.close();
    }
  });

  it("logout ends only that token's sockets, with reason logout", async () => {
    const judge = await signedInJudge();
    const otherToken = await login(server.app, judge.username, judge.password);
    const otherSocket = await connectSocket(server.url, otherToken);
    const otherEnded = collect(otherSocket, 'session.ended');
    try {
      const ends = sessionEnds(judge.socket);
      expect((await call('POST', '/api/auth/logout', judge.token)).statusCode).toBe(200);
      expect(await ends).toEqual({ reason: 'logout' });
      expect((await me(judge.token)).statusCode).toBe(401);

      // The same user's other session (another tab, another device) goes on.
      await new Promise((r) => setTimeout(r, 300));
      expect(otherSocket.connected).toBe(true);
      expect(otherEnded).toEqual([]);
      expect((await me(otherToken)).statusCode).toBe(200);
      // And signing in again works.
      expect((await me(await login(server.app, judge.username, judge.password))).statusCode).toBe(200);
    } finally {
      judge.socket.close();
      otherSocket.close();
    }
  });

  it('a socket is closed with reason expired when its token expires', async () => {
    const user = await createUser(server.orm, USER_TYPES.judge, undefined, 'Clave-Jurado-Norte-7');
    const rows = await server.orm.em
      .fork()
      .execute<Array<{ v: number }>>('select session_version as v from users where id = ?', [user.id]);
    const token = server.app.jwt.sign(
      { sub: String(user.id), typ: USER_TYPES.judge, jti: randomUUID(), ver: Number(rows[0]!.v) },
      { expiresIn: 2 },
    );
    expect((await me(token)).statusCode).toBe(200);
    const socket = await connectSocket(server.url, token);
    try {
      const openedAt = Date.now();
      expect(await sessionEnds(socket, 3_500)).toEqual({ reason: 'expired' });
      expect(Date.now() - openedAt).toBeLessThanOrEqual(3_000);
      expect((await me(token)).statusCode).toBe(401);
    } finally {
      socket.close();
    }
  });
});

describe('sessions end in every server process (Redis)', () => {
  let first: TestServer;
  let second: TestServer;
  let close: ServerPair['close'] | undefined;

  beforeAll(async () => {
    ({ first, second, close } = await startServerPair());
  });
  afterAll(async () => close?.());

  it('a password changed through one process ends the socket open on the other at once', async () => {
    const judge = await createUser(first.orm, USER_TYPES.judge, 'juez_redis', 'Clave-Jurado-Norte-7');
    const admin = await signIn(first, USER_TYPES.admin, 'admin_redis', 'clave-admin');
    const token = await login(second.app, 'juez_redis', 'Clave-Jurado-Norte-7');
    const socket = await connectSocket(second.url, token);
    try {
      // Within 3 s: well before the periodic sweep (15 s) could have found it.
      const ends = sessionEnds(socket, 3_000);
      const res = await callOf(() => first)('POST', '/api/updateUser', admin, {
        id: judge.id,
        name: 'Juez Redis',
        username: 'juez_redis',
        password: NEW_PASSWORD,
        types_users_id: USER_TYPES.judge,
      });
      expect(res.statusCode).toBe(200);
      expect(await ends).toEqual({ reason: 'password' });
      expect((await callOf(() => second)('POST', '/api/auth/me', token)).statusCode).toBe(401);
    } finally {
      socket.close();
    }
  });
});

describe('two admins acting on each other at once', () => {
  let server: TestServer;
  const call = callOf(() => server);
  const ROUNDS = 10;
  /** Every answer a race may honestly give: done, already gone, refused by a rule, session over. */
  const ALLOWED = [200, 401, 404, 409];

  const typeOf = async (id: number): Promise<number | null> => {
    const rows = await server.orm.em
      .fork()
      .execute<Array<{ t: number }>>('select types_users_id as t from users where id = ?', [id]);
    return rows[0] ? Number(rows[0].t) : null;
  };
  const adminCount = async () =>
    Number(
      (
        await server.orm.em
          .fork()
          .execute<Array<{ n: number }>>('select count(*) as n from users where types_users_id = ?', [
            USER_TYPES.admin,
          ])
      )[0]!.n,
    );
  /** Two new admins, A and B, each signed in. */
  const pair = async () =>
    Promise.all(
      ['a', 'b'].map(async () => {
        const user = await createUser(server.orm, USER_TYPES.admin, undefined, 'Clave-Jurado-Norte-7');
        return { ...user, token: await login(server.app, user.username, 'Clave-Jurado-Norte-7') };
      }),
    );
  type Admin = Awaited<ReturnType<typeof pair>>[number];
  const deletes = (actor: Admin, target: Admin) => call('GET', `/api/deleteUser/${target.id}`, actor.token);
  const demotes = (actor: Admin, target: Admin) =>
    call('POST', '/api/updateUser', actor.token, {
      id: target.id,
      name: 'Administrador degradado',
      username: target.username,
      types_users_id: USER_TYPES.judge,
    });

  /**
   * Runs `ROUNDS` rounds of A and B doing `act` to each other at once; checks every answer and that
   * the database matches the answers: `doneTo` says whether a target's type (null: gone) shows the
   * act; `admins` checks the number of administrators after each round.
   */
  const race = async (
    act: typeof deletes,
    doneTo: (type: number | null) => boolean,
    admins: (count: number, round: number) => void,
    beforeRound = async () => {},
  ) => {
    for (let round = 1; round <= ROUNDS; round++) {
      await beforeRound();
      const [a, b] = (await pair()) as [Admin, Admin];
      const [byA, byB] = await Promise.all([act(a, b), act(b, a)]);
      for (const res of [byA, byB]) {
        expect(ALLOWED, `round ${round}: ${res.statusCode} ${res.body}`).toContain(res.statusCode);
      }
      // One of them always gets through; a 200 really happened and nothing else did.
      expect([byA.statusCode, byB.statusCode], `round ${round}`).toContain(200);
      expect(doneTo(await typeOf(b.id)), `round ${round}: B`).toBe(byA.statusCode === 200);
      expect(doneTo(await typeOf(a.id)), `round ${round}: A`).toBe(byB.statusCode === 200);
      admins(await adminCount(), round);
    }
  };

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  const atLeastOne = (count: number, round: number) =>
    expect(count, `round ${round}`).toBeGreaterThanOrEqual(1);
  const exactlyOne = (count: number, round: number) => expect(count, `round ${round}`).toBe(1);

  describe('with a third admin', () => {
    beforeAll(async () => {
      await createUser(server.orm, USER_TYPES.admin, 'admin_tercero', 'clave-admin');
    });

    it('deleting each other: never a 500, and the database matches the answers', async () => {
      await race(deletes, (type) => type === null, atLeastOne);
    });

    it('demoting each other: never a 500, and the database matches the answers', async () => {
      await race(demotes, (type) => type === USER_TYPES.judge, atLeastOne);
    });
  });

  describe('with no other admin', () => {
    /** Leaves no administrator, so each round starts with only A and B. */
    const noAdmins = async () => {
      await server.orm.em.fork().execute('delete from users where types_users_id = ?', [USER_TYPES.admin]);
    };

    it('deleting each other leaves exactly one admin', async () => {
      await race(deletes, (type) => type === null, exactlyOne, noAdmins);
    });

    it('demoting each other leaves exactly one admin', async () => {
      await race(demotes, (type) => type === USER_TYPES.judge, exactlyOne, noAdmins);
    });
  });
});
