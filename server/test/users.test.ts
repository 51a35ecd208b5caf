import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_MESSAGES, MESSAGES, PASSWORD_MESSAGES, USER_TYPES } from '@concurso/shared';
import {
  connectSocket,
  createUser,
  login,
  signIn,
  startTestServer,
  type TestServer,
} from '@concurso/testkit';

/** Users of the three types (docs/spec.md sections 2, 3, 7; docs/design.md section 5). */
describe('users', () => {
  let server: TestServer;
  let admin: string;
  let adminId: number;
  let judge: string;
  const bodies: string[] = [];

  const call = async (method: 'GET' | 'POST', url: string, token: string | undefined, payload?: unknown) => {
    const res = await server.app.inject({
      method,
      url,
      payload: payload as object,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    bodies.push(res.body);
    return res;
  };

  beforeAll(async () => {
    server = await startTestServer();
    adminId = (await createUser(server.orm, USER_TYPES.admin, 'admin_users', 'clave-admin')).id;
    admin = await login(server.app, 'admin_users', 'clave-admin');
    judge = await signIn(server, USER_TYPES.judge, 'juez_users', 'clave-juez');
  });
  afterAll(async () => server?.close());

  it('creates a judge who can then sign in, and lists users by type', async () => {
    const res = await call('POST', '/api/createUser', admin, {
      name: 'Mtro. Ricardo Salas',
      username: 'rsalas',
      password: 'juez-secreto-1',
      types_users_id: USER_TYPES.judge,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: MESSAGES.created,
      data: { name: 'Mtro. Ricardo Salas', username: 'rsalas', types_users_id: USER_TYPES.judge },
    });
    expect(await login(server.app, 'rsalas', 'juez-secreto-1')).toBeTruthy();
    const judges = await call('GET', '/api/getUsersJuecez', admin);
    expect(judges.json().data.map((u: { username: string }) => u.username)).toEqual(['juez_users', 'rsalas']);
    const admins = await call('GET', '/api/getUsersAdmin', admin);
    expect(admins.json().data.map((u: { username: string }) => u.username)).toEqual(['admin_users']);
  });

  it('creates participants without a password; they cannot sign in', async () => {
    const res = await call('POST', '/api/createUser', admin, {
      name: 'Ana Torres',
      username: 'atorres',
      types_users_id: USER_TYPES.participant,
    });
    expect(res.statusCode).toBe(200);
    const stored = await server.orm.em
      .fork()
      .execute<Array<{ password: string | null }>>("select password from users where username = 'atorres'");
    expect(stored[0]!.password).toBeNull();
    const list = await call('GET', '/api/getUsersParticipants', admin);
    expect(list.json().data).toEqual([expect.objectContaining({ username: 'atorres' })]);
    // The same answer as any wrong password: a login never tells which usernames exist.
    const signIn = await call('POST', '/api/auth/login', undefined, { username: 'atorres', password: 'x' });
    expect(signIn.statusCode).toBe(401);
    expect(signIn.json().message).toBe(MESSAGES.loginInvalid);
  });

  it('requires name, username, and a password for staff (422), writing nothing', async () => {
    for (const [field, body] of [
      ['name', { username: 'a1', password: 'sol-de-marzo-2026', types_users_id: 2 }],
      ['username', { name: 'A', password: 'sol-de-marzo-2026', types_users_id: 2 }],
      ['password', { name: 'A', username: 'a2', types_users_id: 2 }],
    ] as const) {
      const res = await call('POST', '/api/createUser', admin, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors[field]).toEqual([MESSAGES.required]);
    }
    const list = await call('GET', '/api/getUsersJuecez', admin);
    expect(list.json().data).toHaveLength(2);
  });

  it('refuses weak staff passwords with 422 and the Spanish message on password, writing nothing', async () => {
    const before = (await call('GET', '/api/getUsersJuecez', admin)).json().data.length;
    for (const [password, message] of [
      ['12345678', PASSWORD_MESSAGES.tooShort],
      ['password', PASSWORD_MESSAGES.tooShort],
      ['jperez_juez', PASSWORD_MESSAGES.sameAsUsername],
      ['JPEREZ_JUEZ-2026', PASSWORD_MESSAGES.containsUsername],
      ['contraseña123', PASSWORD_MESSAGES.common],
      ['Concurso2026', PASSWORD_MESSAGES.common],
      ['1234567890', PASSWORD_MESSAGES.common],
    ] as const) {
      for (const types_users_id of [USER_TYPES.judge, USER_TYPES.admin]) {
        const res = await call('POST', '/api/createUser', admin, {
          name: 'Juan Pérez',
          username: 'jperez_juez',
          password,
          types_users_id,
        });
        expect([password, res.statusCode]).toEqual([password, 422]);
        expect(res.json()).toEqual({
          success: false,
          message: MESSAGES.validation,
          errors: { password: [message] },
        });
      }
    }
    expect((await call('GET', '/api/getUsersJuecez', admin)).json().data).toHaveLength(before);

    // The same policy on update; the stored password keeps working.
    const judgeRow = (await call('GET', '/api/getUsersJuecez', admin)).json().data[1];
    const weak = await call('POST', '/api/updateUser', admin, { ...judgeRow, password: 'rsalas' });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors).toEqual({ password: [PASSWORD_MESSAGES.sameAsUsername] });
    expect(await login(server.app, 'rsalas', 'juez-secreto-1')).toBeTruthy();
  });

  it('accepts a good staff password, a passphrase included, and signs in with it', async () => {
    const res = await call('POST', '/api/createUser', admin, {
      name: 'Juan Pérez',
      username: 'jperez_juez',
      password: 'sol de marzo en zapopan',
      types_users_id: USER_TYPES.judge,
    });
    expect(res.statusCode).toBe(200);
    expect(await login(server.app, 'jperez_juez', 'sol de marzo en zapopan')).toBeTruthy();
    await call('GET', `/api/deleteUser/${res.json().data.id}`, admin);
  });

  it('refuses a user type that is not an integer, and unprintable names', async () => {
    for (const types_users_id of [true, '0x2', 2.5, [2], '2 ']) {
      const res = await call('POST', '/api/createUser', admin, {
        name: 'Tipo Raro',
        username: 'tipo_raro',
        password: 'sol-de-marzo-2026',
        types_users_id,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ types_users_id: ['Tipo de usuario no válido'] });
    }
    const nul = await call('POST', '/api/createUser', admin, {
      name: 'Ana\u0000Torres',
      username: 'atorres2',
      types_users_id: USER_TYPES.participant,
    });
    expect(nul.statusCode).toBe(422);
    expect(nul.json().errors).toEqual({ name: [INPUT_MESSAGES.controlCharacters] });
    const stored = await server.orm.em
      .fork()
      .execute<Array<{ n: number }>>(
        "select count(*) as n from users where username in ('tipo_raro', 'atorres2')",
      );
    expect(Number(stored[0]!.n)).toBe(0);
  });

  it('refuses a taken username with a message naming it', async () => {
    const res = await call('POST', '/api/createUser', admin, {
      name: 'Otro',
      username: 'RSALAS',
      password: 'sol-de-marzo-2026',
      types_users_id: 2,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('El nombre de usuario "RSALAS" ya está en uso.');
  });

  it('updates without touching the password when it is empty, and changes it when given', async () => {
    const user = (await call('GET', '/api/getUsersJuecez', admin)).json().data[1];
    const keep = await call('POST', '/api/updateUser', admin, {
      ...user,
      name: 'Ricardo Salas',
      password: '',
    });
    expect(keep.json()).toMatchObject({ message: MESSAGES.saved, data: { name: 'Ricardo Salas' } });
    expect(await login(server.app, 'rsalas', 'juez-secreto-1')).toBeTruthy();
    await call('POST', '/api/updateUser', admin, { ...user, password: 'nueva-clave-22' });
    expect(await login(server.app, 'rsalas', 'nueva-clave-22')).toBeTruthy();
    expect((await call('POST', '/api/updateUser', admin, { ...user, id: 99999 })).statusCode).toBe(404);
  });

  it('keeps the admin console for admins: 401 anonymous, 403 judges', async () => {
    expect((await call('GET', '/api/getUsersAdmin', undefined)).statusCode).toBe(401);
    for (const [method, url] of [
      ['GET', '/api/getUsersAdmin'],
      ['GET', '/api/getUsersJuecez'],
      ['POST', '/api/createUser'],
      ['GET', '/api/deleteUser/1'],
    ] as const) {
      expect(
        (await call(method, url, judge, { name: 'x', username: 'y', types_users_id: 3 })).statusCode,
      ).toBe(403);
    }
  });

  it('refuses deleting oneself and the last administrator', async () => {
    const self = await call('GET', `/api/deleteUser/${adminId}`, admin);
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe('No puede eliminar su propia cuenta.');
    const demote = await call('POST', '/api/updateUser', admin, {
      id: adminId,
      name: 'Admin',
      username: 'admin_users',
      types_users_id: USER_TYPES.judge,
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toBe('No se puede quitar al último administrador.');
  });

  it('deleting a signed-in user ends their session and sockets', async () => {
    const created = await call('POST', '/api/createUser', admin, {
      name: 'Juez Temporal',
      username: 'temporal',
      password: 'reloj-de-arena-7',
      types_users_id: USER_TYPES.judge,
    });
    const id = created.json().data.id;
    const token = await login(server.app, 'temporal', 'reloj-de-arena-7');
    const socket = await connectSocket(server.url, token);
    const closed = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    expect((await call('GET', `/api/deleteUser/${id}`, admin)).json()).toEqual({
      success: true,
      message: MESSAGES.deleted,
    });
    await closed;
    expect((await call('POST', '/api/auth/me', token)).statusCode).toBe(401);
    expect((await call('GET', `/api/deleteUser/${id}`, admin)).statusCode).toBe(404);
  });

  it('never answers a password or its hash', () => {
    for (const body of bodies) {
      expect(body).not.toMatch(
        /argon2|juez-secreto-1|nueva-clave-22|reloj-de-arena-7|sol de marzo en zapopan/,
      );
      // A field error may name `password`; a value never comes back.
      expect(body).not.toMatch(/"password":\s*"/);
    }
  });
});
