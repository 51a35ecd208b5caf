import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVELS, MESSAGES, TEAM_STATUS, USER_TYPES } from '@concurso/shared';
import {
  callAs,
  blockProcesses,
  connectSocket,
  createTeam,
  generateAgentKey,
  nextEvent,
  nextRow,
  signIn,
  startTestServer,
  type TestServer,
  injectAttempts,
  newAttempts,
  type AgentAttemptBody,
} from '@concurso/testkit';

/**
 * The contest's life on the server: one active contest chosen by an admin (docs/design.md
 * section 3), what boards and agents then see, contests created with a copied blocked set, teams
 * created in and moved to a chosen contest, and the automatic block at `max_attempts`.
 */
describe('active contest and automatic block', () => {
  let server: TestServer;
  let admin: string;
  let judge: string;

  beforeAll(async () => {
    server = await startTestServer({ logLevel: 'error' });
    admin = await signIn(server, USER_TYPES.admin, 'admin_vida', 'clave-admin');
    judge = await signIn(server, USER_TYPES.judge, 'juez_vida', 'clave-juez');
  });
  afterAll(async () => server?.close());

  const call = (token: string, url: string, payload?: object) => callAs(server.app, token, url, payload);
  const contests = async () =>
    (await call(admin, '/api/getContests')).body.data as Array<{
      id: number;
      calendar: string;
      active: boolean;
      max_attempts: number | null;
    }>;
  const agentCall = (key: string, url: string, payload?: object) =>
    server.app.inject({
      method: payload === undefined ? 'GET' : 'POST',
      url,
      ...(payload === undefined ? {} : { payload }),
      headers: { authorization: `Bearer ${key}` },
    });

  let first: number;
  let second: number;

  it('makes the first contest active and never switches on later creations', async () => {
    const board = await call(judge, '/api/teamAttempts');
    expect(board.body.contest).toBeNull();

    const created = await call(admin, '/api/createContest', { date: '2026-11-21', max_attempts: '' });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ calendar: '2026B', active: true, max_attempts: null });
    first = created.body.data.id;
    await blockProcesses(server.orm, first, ['trampa.exe', 'Discord.exe']);

    // A later date no longer takes the boards (the old "latest date" rule emptied them).
    const next = await call(admin, '/api/createContest', {
      date: '2027-02-10',
      copy_from_contests_id: first,
    });
    expect(next.body.data).toMatchObject({ calendar: '2027A', active: false });
    second = next.body.data.id;
    expect((await contests()).map((c) => [c.id, c.active])).toEqual([
      [first, true],
      [second, false],
    ]);
    expect((await call(judge, '/api/teamAttempts')).body.contest.id).toBe(first);

    // The new contest starts with a copy of the chosen contest's blocked set.
    const copied = await call(admin, `/api/processContest/${second}`);
    expect(copied.body.data.map((row: { processes: { name: string } }) => row.processes.name)).toEqual([
      'Discord.exe',
      'trampa.exe',
    ]);
    const bad = await call(admin, '/api/createContest', { date: '2027-03-01', copy_from_contests_id: 99999 });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.copy_from_contests_id).toEqual(['No se encontró el concurso.']);
    expect(await contests()).toHaveLength(2); // nothing created
  });

  it('activates a contest for admins only: boards reset and show it, agents follow at their refresh', async () => {
    const coach = (
      await call(admin, '/api/createCoach', { name: 'Coach Vida', educationalLevel: 'Doctorado' })
    ).body.data.id as number;
    const oldTeam = (
      await call(admin, '/api/createTeam', {
        name: 'Los de 2026B',
        levels_id: LEVELS.basico,
        coaches_id: coach,
      })
    ).body.data;
    expect(oldTeam.contests_id).toBe(first); // no contest chosen: the active one
    const newTeam = (
      await call(admin, '/api/createTeam', {
        name: 'Los de 2027A',
        levels_id: LEVELS.basico,
        coaches_id: coach,
        contests_id: second,
      })
    ).body.data;
    expect(newTeam.contests_id).toBe(second);
    const unknown = await call(admin, '/api/createTeam', {
      name: 'Sin concurso',
      levels_id: LEVELS.basico,
      coaches_id: coach,
      contests_id: 99999,
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.contests_id).toEqual(['No se encontró el concurso.']);

    const oldKey = await generateAgentKey(server.app, admin, oldTeam.id);
    const newKey = await generateAgentKey(server.app, admin, newTeam.id);
    const blockedOf = async (key: string) => (await agentCall(key, '/api/agent/config')).json().data.blocked;
    expect(await blockedOf(oldKey)).toEqual(['Discord.exe', 'trampa.exe']);
    expect(await blockedOf(newKey)).toEqual([]); // not the active contest: its agent blocks nothing

    expect((await call(judge, `/api/activateContest/${second}`, {})).status).toBe(403);
    expect((await call(admin, '/api/activateContest/99999', {})).status).toBe(404);

    const screen = await connectSocket(server.url, judge);
    try {
      const reset = nextEvent(screen, 'board.reset');
      const activated = await call(admin, `/api/activateContest/${second}`, {});
      expect(activated.status).toBe(200);
      expect(activated.body).toMatchObject({ success: true, data: { id: second, active: true } });
      await reset;
    } finally {
      screen.disconnect();
    }
    expect((await contests()).filter((c) => c.active).map((c) => c.id)).toEqual([second]);
    const board = (await call(judge, '/api/teamAttempts')).body;
    expect(board.contest).toMatchObject({ id: second, calendar: '2027A', active: true });
    expect(board.basico.map((t: { name: string }) => t.name)).toEqual(['Los de 2027A']);
    expect(await blockedOf(newKey)).toEqual(['Discord.exe', 'trampa.exe']);
    expect(await blockedOf(oldKey)).toEqual([]);

    // Activating the active contest again changes nothing.
    expect((await call(admin, `/api/activateContest/${second}`, {})).body.data.active).toBe(true);
    expect((await contests()).filter((c) => c.active)).toHaveLength(1);
  });

  it('moves a team to the active contest with its members, and refuses a code already there', async () => {
    const coach = (
      await call(admin, '/api/createCoach', { name: 'Coach Mudanza', educationalLevel: 'Doctorado' })
    ).body.data.id as number;
    const school = (await call(admin, '/api/createSchool', { name: 'Escuela Vida' })).body.data.id as number;
    const departament = (
      await call(admin, '/api/createDepartament', { name: 'Sistemas', type: 0, schools_id: school })
    ).body.data.id as number;
    const career = (
      await call(admin, '/api/createCareer', { name: 'Informática', departaments_id: departament })
    ).body.data.id as number;
    const teamIn = async (name: string, contests_id: number) =>
      (
        await call(admin, '/api/createTeam', {
          name,
          levels_id: LEVELS.avanzado,
          coaches_id: coach,
          contests_id,
        })
      ).body.data;
    const member = (code: string, teams_id: number) => [
      { code, name: `Alumno ${code}`, semester: 3, teams_id, careers_id: career },
    ];
    const moving = await teamIn('Los Viajeros', first);
    expect((await call(admin, '/api/createMember', member('V-001', moving.id))).status).toBe(200);

    // A code already registered in the target contest keeps the team where it is.
    const clash = await teamIn('Los Otros', first);
    expect((await call(admin, '/api/createMember', member('C-9', clash.id))).status).toBe(200);
    const holder = await teamIn('Los Dueños', second);
    expect((await call(admin, '/api/createMember', member('C-9', holder.id))).status).toBe(200);
    const refused = await call(admin, '/api/updateTeam', {
      id: clash.id,
      name: 'Los Otros',
      levels_id: LEVELS.avanzado,
      coaches_id: coach,
      contests_id: second,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'El código C-9 ya está registrado en ese concurso (equipo "Los Dueños").',
    );
    expect(
      (await call(admin, '/api/getTeams')).body.data.find((t: { id: number }) => t.id === clash.id)
        .contests_id,
    ).toBe(first);

    const screen = await connectSocket(server.url, judge);
    try {
      const pushed = nextRow(screen, (row) => row.id === moving.id);
      const moved = await call(admin, '/api/updateTeam', {
        id: moving.id,
        name: 'Los Viajeros',
        levels_id: LEVELS.avanzado,
        coaches_id: coach,
        contests_id: second,
      });
      expect(moved.body).toMatchObject({ success: true });
      expect(moved.status).toBe(200);
      expect(moved.body.data.contests_id).toBe(second);
      expect((await pushed).name).toBe('Los Viajeros'); // now on the active contest's boards
    } finally {
      screen.disconnect();
    }
    const members = await server.orm.em
      .fork()
      .execute<Array<{ contests_id: number }>>('select contests_id from members where teams_id = ?', [
        moving.id,
      ]);
    expect(members.every((m) => m.contests_id === second)).toBe(true);
  });

  it('blocks a team automatically at max_attempts, audits it with no user, and waits for a new attempt after an unblock', async () => {
    const saved = await call(admin, '/api/updateContest', {
      id: second,
      date: '2027-02-10',
      max_attempts: 3,
    });
    expect(saved.body.data).toMatchObject({ max_attempts: 3, active: true });
    expect(
      (await call(admin, '/api/updateContest', { id: second, date: '2027-02-10', max_attempts: 0 })).status,
    ).toBe(422);

    const team = await createTeam(server.orm, second, LEVELS.intermedio, 'Los Insistentes');
    const key = await generateAgentKey(server.app, admin, team.id);
    const post = async (n: number, attempts = newAttempts(Array(n).fill('trampa.exe'))) => {
      const res = await injectAttempts(server.app, key, attempts);
      expect(res.statusCode).toBe(200);
      return attempts;
    };
    const status = async () =>
      (
        await server.orm.em
          .fork()
          .execute<Array<{ status_team_id: number; number_attempts: number }>>(
            'select status_team_id, number_attempts from teams where id = ?',
            [team.id],
          )
      )[0]!;
    const log = async () =>
      (await call(judge, `/api/teamStatusLog/${team.id}`)).body.data as Array<{
        to: { id: number };
        user: { name: string } | null;
        automatic: boolean;
      }>;

    await post(2);
    expect(await status()).toEqual({ status_team_id: TEAM_STATUS.active, number_attempts: 2 });
    let sent: AgentAttemptBody[] = [];

    const screen = await connectSocket(server.url, judge);
    try {
      const blockedRow = nextRow(
        screen,
        (row) => row.id === team.id && row.status_team.id === TEAM_STATUS.disqualified,
      );
      sent = await post(1); // the third attempt reaches the threshold
      expect((await blockedRow).number_attempts).toBe(3);
    } finally {
      screen.disconnect();
    }
    expect(await status()).toEqual({ status_team_id: TEAM_STATUS.disqualified, number_attempts: 3 });
    expect(await log()).toMatchObject([
      { to: { id: TEAM_STATUS.disqualified }, user: null, automatic: true },
    ]);

    // A judge unblocks: the team stays active while it makes no new attempt, however many it has.
    const unblocked = await call(judge, `/api/descalificarTeam/${team.id}`);
    expect(unblocked.body.data.status_team.id).toBe(TEAM_STATUS.active);
    const [latest] = await log();
    expect(latest).toMatchObject({
      to: { id: TEAM_STATUS.active },
      user: { name: expect.any(String) },
      automatic: false,
    });
    // An agent's retry of an attempt already counted is no new attempt.
    await post(1, sent);
    expect(await status()).toEqual({ status_team_id: TEAM_STATUS.active, number_attempts: 3 });

    await post(1); // a new attempt beyond the threshold blocks it again
    expect(await status()).toEqual({ status_team_id: TEAM_STATUS.disqualified, number_attempts: 4 });
    expect((await log()).filter((row) => row.automatic)).toHaveLength(2);

    // Without a threshold nothing is blocked automatically.
    await call(admin, '/api/updateContest', { id: second, date: '2027-02-10', max_attempts: null });
    await call(judge, `/api/descalificarTeam/${team.id}`);
    await post(5);
    expect(await status()).toEqual({ status_team_id: TEAM_STATUS.active, number_attempts: 9 });
  });

  it('refuses to delete the active contest, and an activation racing a deletion never leaves none active', async () => {
    const active = (await contests()).find((c) => c.active)!;
    const lone = (await call(admin, '/api/createContest', { date: '2027-08-01' })).body.data.id as number;
    await call(admin, `/api/activateContest/${lone}`, {});
    const refused = await call(admin, `/api/deleteContest/${lone}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ success: false, message: MESSAGES.activeContestDelete });
    expect((await contests()).find((c) => c.id === lone)).toMatchObject({ active: true });

    // Before the row lock both answered 200 and no contest was active. Each round ends one of two
    // ways: activated and kept (delete 409), or deleted first (activate 404, the old one stays active).
    await call(admin, `/api/activateContest/${active.id}`, {});
    const outcomes = new Set<string>();
    for (let round = 0; round < 12; round += 1) {
      const empty = (await call(admin, '/api/createContest', { date: '2027-09-01' })).body.data.id as number;
      const [activated, deleted] = await Promise.all([
        call(admin, `/api/activateContest/${empty}`, {}),
        call(admin, `/api/deleteContest/${empty}`),
      ]);
      const outcome = `${activated.status}/${deleted.status}`;
      expect(['200/409', '404/200']).toContain(outcome);
      outcomes.add(outcome);
      const now = (await contests()).filter((c) => c.active);
      expect(now).toHaveLength(1);
      expect(now[0]!.id).toBe(outcome === '200/409' ? empty : active.id);
      if (outcome === '200/409') {
        await call(admin, `/api/activateContest/${active.id}`, {});
        expect((await call(admin, `/api/deleteContest/${empty}`)).status).toBe(200);
      }
    }
    console.log(`activate/delete races: ${[...outcomes].join(', ')}`);
  });

  it('answers no contest on the boards when none is active', async () => {
    // No call leaves contests with none active any more; data from before that rule may.
    await server.orm.em.fork().execute('update contests set active_key = null');
    const board = await call(judge, '/api/teamAttempts');
    expect(board.body).toMatchObject({ contest: null, basico: [], intermedio: [], avanzado: [] });
    const coach = (
      await call(admin, '/api/createCoach', { name: 'Coach Huérfano', educationalLevel: 'Doctorado' })
    ).body.data.id as number;
    const orphan = await call(admin, '/api/createTeam', {
      name: 'Sin activo',
      levels_id: LEVELS.basico,
      coaches_id: coach,
    });
    expect(orphan.status).toBe(422);
    expect(orphan.body.errors.contests_id).toEqual([MESSAGES.noActiveContest]);
  });
});
