import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_MESSAGES, LEVELS, MESSAGES } from '@concurso/shared';
import {
  collect,
  connectSocket,
  createContest,
  nextEvent,
  signInStaff,
  startTestServer,
  type TestServer,
  nextRow,
} from '@concurso/testkit';

/** Teams and members (docs/spec.md sections 2, 3, 5, 7) and how the live boards follow them. */
describe('teams and members', () => {
  let server: TestServer;
  let admin: string;
  let judge: string;
  let coach: number;
  let career: number;
  let contest: number;

  const call = (method: 'GET' | 'POST', url: string, token: string | undefined, payload?: unknown) =>
    server.app.inject({
      method,
      url,
      payload: payload as object,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  const ok = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const res = await call(method, url, admin, payload);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const count = async (sql: string, params: unknown[] = []) =>
    Number((await server.orm.em.fork().execute<Array<{ n: number }>>(sql, params))[0]!.n);

  beforeAll(async () => {
    server = await startTestServer();
    ({ admin, judge } = await signInStaff(server, 'teams'));
  });
  afterAll(async () => server?.close());

  it('refuses a team while there is no contest', async () => {
    coach = (
      await ok('POST', '/api/createCoach', { name: 'Mtra. Sofía Ortega', educationalLevel: 'Maestría' })
    ).id;
    const res = await call('POST', '/api/createTeam', admin, {
      name: 'Sin concurso',
      levels_id: 1,
      coaches_id: coach,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(MESSAGES.noCurrentContest);
  });

  it('creates a team in the current contest, lists it with embedded names, and pushes it to its level', async () => {
    contest = (await ok('POST', '/api/createContest', { date: '2026-11-21' })).id;
    const school = (await ok('POST', '/api/createSchool', { name: 'CUCEI' })).id;
    const dep = (
      await ok('POST', '/api/createDepartament', { name: 'Computación', type: 0, schools_id: school })
    ).id;
    career = (
      await ok('POST', '/api/createCareer', { name: 'Ingeniería en Computación', departaments_id: dep })
    ).id;

    const screen = await connectSocket(server.url, judge, [LEVELS.intermedio]);
    try {
      const pushed = nextRow(screen, (row) => row.name === 'Los Lambdas');
      const res = await call('POST', '/api/createTeam', admin, {
        name: 'Los Lambdas',
        levels_id: LEVELS.intermedio,
        coaches_id: coach,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        message: MESSAGES.created,
        data: {
          name: 'Los Lambdas',
          contests_id: contest,
          number_attempts: 0,
          status_team: { id: 1, status: 'Activo' },
          coach: { id: coach, name: 'Mtra. Sofía Ortega' },
          level: { id: LEVELS.intermedio, level: 'Intermedio' },
          contest: { id: contest, calendar: '2026B' },
          has_agent_key: false,
        },
      });
      expect(await pushed).toMatchObject({ name: 'Los Lambdas', levels_id: LEVELS.intermedio });
    } finally {
      screen.close();
    }
    const list = await call('GET', '/api/getTeams', judge);
    expect(list.json().data.map((t: { name: string }) => t.name)).toEqual(['Los Lambdas']);
  });

  it('answers 422 per missing field, 409 for a name taken in the contest, 401 and 403', async () => {
    for (const field of ['name', 'levels_id', 'coaches_id']) {
      const body: Record<string, unknown> = { name: 'X', levels_id: 1, coaches_id: coach };
      delete body[field];
      const res = await call('POST', '/api/createTeam', admin, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors[field]).toEqual([MESSAGES.required]);
    }
    const dup = await call('POST', '/api/createTeam', admin, {
      name: 'Los Lambdas',
      levels_id: 1,
      coaches_id: coach,
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toContain('Los Lambdas');
    expect((await call('GET', '/api/getTeams', undefined)).statusCode).toBe(401);
    const judgeWrite = await call('POST', '/api/createTeam', judge, {
      name: 'Y',
      levels_id: 1,
      coaches_id: coach,
    });
    expect(judgeWrite.statusCode).toBe(403);
    expect(await count('select count(*) as n from teams')).toBe(1);
  });

  it('refuses team names with invisible format characters, storing nothing', async () => {
    const [team] = await ok('GET', '/api/getTeams');
    for (const name of ['Equipo\u202Eexe.fdp', 'Los\u200BLambdas', 'x\u2066y\u2069']) {
      const created = await call('POST', '/api/createTeam', admin, { name, levels_id: 1, coaches_id: coach });
      expect([name, created.statusCode]).toEqual([name, 422]);
      expect(created.json().errors).toEqual({ name: [INPUT_MESSAGES.formatCharacters] });
      const renamed = await call('POST', '/api/updateTeam', admin, {
        id: team.id,
        name,
        levels_id: team.levels_id,
        coaches_id: team.coaches_id,
      });
      expect(renamed.statusCode).toBe(422);
    }
    expect(await count('select count(*) as n from teams')).toBe(1);
    expect((await ok('GET', '/api/getTeams'))[0].name).toBe(team.name);
  });

  it('saves a team edit sent with its own contest, answering the row with the contest embedded', async () => {
    // The form always sends contests_id; the same contest as the team's answered 500 (a half-loaded
    // contest entity left `contest.calendar` out of the reply) although the change was saved.
    const created = await ok('POST', '/api/createTeam', {
      name: 'Los Editables',
      levels_id: 1,
      coaches_id: coach,
    });
    const team = (await ok('GET', '/api/getTeams')).find((row: { id: number }) => row.id === created.id);
    const res = await call('POST', '/api/updateTeam', admin, {
      id: team.id,
      name: 'Los Editables Editados',
      levels_id: team.levels_id,
      coaches_id: team.coaches_id,
      contests_id: team.contests_id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: MESSAGES.saved,
      data: {
        id: team.id,
        name: 'Los Editables Editados',
        contest: { id: team.contests_id, calendar: team.contest.calendar },
      },
    });
    const back = await call('POST', '/api/updateTeam', admin, {
      ...res.json().data,
      name: team.name,
      contests_id: team.contests_id,
    });
    expect(back.statusCode, back.body).toBe(200);

    // And into another contest: the reply embeds that one.
    const other = await createContest(server.orm, '2027-03-15', { active: false });
    const moved = await call('POST', '/api/updateTeam', admin, {
      id: team.id,
      name: team.name,
      levels_id: team.levels_id,
      coaches_id: team.coaches_id,
      contests_id: other.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({
      id: team.id,
      contest: { id: other.id, calendar: other.calendar },
    });
    const stored = (await ok('GET', '/api/getTeams')).find((row: { id: number }) => row.id === team.id);
    expect(stored.contests_id).toBe(other.id);
  });

  it('moves a team between level screens when its level changes', async () => {
    const team = (await ok('GET', '/api/getTeams'))[0];
    const oldLevel = await connectSocket(server.url, judge, [LEVELS.intermedio]);
    const newLevel = await connectSocket(server.url, judge, [LEVELS.avanzado]);
    try {
      const removed = nextEvent(oldLevel, 'team.removed');
      const added = nextRow(newLevel, (row) => row.id === team.id);
      await ok('POST', '/api/updateTeam', {
        id: team.id,
        name: 'Los Lambdas',
        levels_id: LEVELS.avanzado,
        coaches_id: coach,
      });
      expect(await removed).toEqual({ id: team.id, levels_id: LEVELS.intermedio });
      expect(await added).toMatchObject({ id: team.id, levels_id: LEVELS.avanzado, version: 2 });
    } finally {
      oldLevel.close();
      newLevel.close();
    }
    const missing = await call('POST', '/api/updateTeam', admin, {
      id: 99999,
      name: 'Z',
      levels_id: 1,
      coaches_id: coach,
    });
    expect(missing.statusCode).toBe(404);
  });

  it('saves members all or none, lists them with career names, and refuses a code used in another team', async () => {
    const team = (await ok('GET', '/api/getTeams'))[0];
    const rows = [
      { code: '219000001', name: 'Ana Sofía Pérez', semester: 5, teams_id: team.id, careers_id: career },
      { code: '219000002', name: 'Luis Ángel Ruiz', semester: 7, teams_id: team.id, careers_id: career },
      { code: '219000003', name: 'María José León', semester: 3, teams_id: team.id, careers_id: career },
    ];
    // One bad row: nothing is written.
    const bad = await call('POST', '/api/createMember', admin, [rows[0], { ...rows[1], name: '' }, rows[2]]);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ '1.name': [MESSAGES.required] });
    const badCareer = await call('POST', '/api/createMember', admin, [
      rows[0],
      { ...rows[1], careers_id: 99999 },
    ]);
    expect(badCareer.statusCode).toBe(422);
    // Strict input: no boolean semester, no hex id, no control characters in a name.
    const strict = await call('POST', '/api/createMember', admin, [
      { ...rows[0], semester: true },
      { ...rows[1], teams_id: `0x${team.id.toString(16)}` },
      { ...rows[2], name: 'María\u0000José' },
    ]);
    expect(strict.statusCode).toBe(422);
    expect(strict.json().errors).toEqual({
      '0.semester': [MESSAGES.required],
      '1.teams_id': [INPUT_MESSAGES.notInteger],
      '2.name': [INPUT_MESSAGES.controlCharacters],
    });
    expect(await count('select count(*) as n from members')).toBe(0);

    const saved = await call('POST', '/api/createMember', admin, rows);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().message).toBe(MESSAGES.created);
    const listed = await call('GET', `/api/getParticipantTeam/${team.id}`, judge);
    expect(listed.json().data).toHaveLength(3);
    expect(listed.json().data[0]).toMatchObject({
      code: '219000001',
      semester: 5,
      careers_id: career,
      career: { id: career, name: 'Ingeniería en Computación' },
    });

    const other = await ok('POST', '/api/createTeam', { name: 'Los Otros', levels_id: 1, coaches_id: coach });
    const clash = await call('POST', '/api/createMember', admin, [
      { code: '219000002', name: 'Otro', semester: 2, teams_id: other.id, careers_id: career },
    ]);
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toContain('Los Lambdas');
    expect(await count('select count(*) as n from members where teams_id = ?', [other.id])).toBe(0);

    const one = listed.json().data[2].id;
    expect((await call('GET', `/api/deleteMember/${one}`, judge)).statusCode).toBe(403);
    expect((await call('GET', `/api/deleteMember/${one}`, admin)).json()).toEqual({
      success: true,
      message: MESSAGES.deleted,
    });
    expect((await call('GET', `/api/deleteMember/${one}`, admin)).statusCode).toBe(404);
    expect((await call('GET', '/api/getParticipantTeam/99999', admin)).statusCode).toBe(404);
  });

  it('deletes a team with its members and attempts, and removes it from the boards', async () => {
    const team = (await ok('GET', '/api/getTeams')).find((t: { name: string }) => t.name === 'Los Lambdas');
    await server.orm.em
      .fork()
      .execute(
        "insert into attempts (teams_id, contests_id, process, occurred_at, received_at, event_id) values (?, ?, 'x.exe', now(), now(), 'evt-00000001')",
        [team.id, contest],
      );
    const screen = await connectSocket(server.url, judge, [LEVELS.avanzado]);
    const seen = collect(screen, 'team.removed');
    try {
      const removed = nextEvent(screen, 'team.removed');
      expect((await call('GET', `/api/deleteTeam/${team.id}`, admin)).json()).toEqual({
        success: true,
        message: MESSAGES.deleted,
      });
      expect(await removed).toEqual({ id: team.id, levels_id: LEVELS.avanzado });
      expect(seen).toHaveLength(1);
    } finally {
      screen.close();
    }
    expect(await count('select count(*) as n from members where teams_id = ?', [team.id])).toBe(0);
    expect(await count('select count(*) as n from attempts where teams_id = ?', [team.id])).toBe(0);
    expect((await call('GET', `/api/deleteTeam/${team.id}`, admin)).statusCode).toBe(404);
    // The coach is now free only once no team uses it: one team ('Los Otros') still does.
    expect((await call('GET', `/api/deleteCoach/${coach}`, admin)).statusCode).toBe(409);
  });
});
