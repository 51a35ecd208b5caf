import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LEVELS,
  MESSAGES,
  TEAM_STATUS,
  USER_TYPES,
  decodeBoardFrame,
  teamAttemptsSchema,
} from '@concurso/shared';
import {
  connectSocket,
  createContest,
  createTeam,
  createUser,
  login,
  startTestServer,
  type TestServer,
  nextRow,
  collectRows,
  collect,
  eventually,
} from '@concurso/testkit';
import { boardRows } from '../src/modules/teams/index.js';

describe('live board (docs/spec.md section 7, docs/design.md section 6)', () => {
  let server: TestServer;
  let judgeToken: string;
  let judgeId: number;
  let teamA: { id: number; name: string; levels_id: number };
  let teamB: { id: number; name: string; levels_id: number };
  let oldTeam: { id: number };

  beforeAll(async () => {
    server = await startTestServer();
    const judge = await createUser(server.orm, USER_TYPES.judge, 'juez_board', 'clave-juez');
    judgeId = judge.id;
    judgeToken = await login(server.app, judge.username, 'clave-juez');
    const old = await createContest(server.orm, '2025-03-01');
    oldTeam = await createTeam(server.orm, old.id, LEVELS.basico, 'Equipo del concurso pasado');
    const current = await createContest(server.orm, '2026-11-21', { active: true });
    teamA = await createTeam(server.orm, current.id, LEVELS.basico, 'Los Compiladores');
    teamB = await createTeam(server.orm, current.id, LEVELS.avanzado, 'Bit a Bit');
  });
  afterAll(async () => server?.close());

  const get = (url: string) =>
    server.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${judgeToken}` } });

  it('lists the current contest teams per level with the fields of a board row', async () => {
    const res = await get('/api/teamAttempts');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    const parsed = teamAttemptsSchema.parse(body);
    expect(parsed.contest).toMatchObject({ calendar: '2026B', date: '2026-11-21' });
    expect(parsed.basico.map((t) => t.name)).toEqual(['Los Compiladores']);
    expect(parsed.intermedio).toEqual([]);
    expect(parsed.avanzado).toEqual([
      {
        id: teamB.id,
        name: 'Bit a Bit',
        levels_id: LEVELS.avanzado,
        number_attempts: 0,
        status_team: { id: TEAM_STATUS.active, status: 'Activo' },
        agent_online: false,
        agent_alert: null,
        version: 1,
      },
    ]);
    const ids = [...parsed.basico, ...parsed.avanzado].map((t) => t.id);
    expect(ids).not.toContain(oldTeam.id);
  });

  it('toggles a team, pushes it only to its level room, and audits the judge', async () => {
    const basicScreen = await connectSocket(server.url, judgeToken, [LEVELS.basico]);
    const advancedScreen = await connectSocket(server.url, judgeToken, [LEVELS.avanzado]);
    const advancedSeen = collectRows(advancedScreen);
    try {
      const pushed = nextRow(basicScreen, (row) => row.id === teamA.id && row.version === 2);
      const res = await get(`/api/descalificarTeam/${teamA.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        success: true,
        message: MESSAGES.processed,
        data: {
          id: teamA.id,
          status_team: { id: TEAM_STATUS.disqualified, status: 'Descalificado' },
          version: 2,
        },
      });
      const event = await pushed;
      expect(event).toEqual(res.json().data);

      // A change in the other level does reach the advanced screen: so its silence above is real.
      const advancedPushed = nextRow(advancedScreen, (row) => row.id === teamB.id);
      await get(`/api/descalificarTeam/${teamB.id}`);
      expect((await advancedPushed).id).toBe(teamB.id);
      expect(advancedSeen.map((t) => t.id)).toEqual([teamB.id]);

      const audit = await server.orm.em
        .fork()
        .execute<Array<{ from: number; to: number; users_id: number; at: Date }>>(
          'select `from`, `to`, users_id, `at` from team_status_changes where teams_id = ? order by id',
          [teamA.id],
        );
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({
        from: TEAM_STATUS.active,
        to: TEAM_STATUS.disqualified,
        users_id: judgeId,
      });
      expect(Math.abs(new Date(audit[0]!.at).getTime() - Date.now())).toBeLessThan(60_000);

      // And back: unblocking is the same call.
      const back = await get(`/api/descalificarTeam/${teamA.id}`);
      expect(back.json().data).toMatchObject({ status_team: { id: TEAM_STATUS.active }, version: 3 });
    } finally {
      basicScreen.close();
      advancedScreen.close();
    }
  });

  it("lists a team's blocks and unblocks with the judge, newest first, to judges", async () => {
    const res = await get(`/api/teamStatusLog/${teamA.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((r: { to: { status: string } }) => r.to.status)).toEqual([
      'Activo',
      'Descalificado',
    ]);
    expect(res.json().data[1]).toMatchObject({
      from: { id: TEAM_STATUS.active, status: 'Activo' },
      user: { id: judgeId, name: 'Usuario juez_board' },
    });
    expect((await get('/api/teamStatusLog/999999')).statusCode).toBe(404);
    const anonymous = await server.app.inject({ method: 'GET', url: `/api/teamStatusLog/${teamA.id}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('sends a screen of every level one frame with the changes of all levels in a window', async () => {
    const everyLevel = await connectSocket(server.url, judgeToken);
    const basicOnly = await connectSocket(server.url, judgeToken, [LEVELS.basico]);
    try {
      // What earlier tests left in the publisher goes out first, and its frames are left behind: the
      // push window grows on a busy machine, so a change of theirs may still be waiting for it.
      server.app.board.flush();
      await new Promise((r) => setTimeout(r, 200));
      const frames = collect(everyLevel, 'board.frame');
      const basicFrames = collect(basicOnly, 'board.frame');
      const em = server.orm.em.fork();
      // Newer versions than anything pushed before, so these rows are told apart from earlier ones.
      const rowA = { ...(await boardRows(em, [teamA.id]))[0]!, version: 10_000 };
      const rowB = { ...(await boardRows(em, [teamB.id]))[0]!, version: 10_000 };
      // Two changes of two levels in the same turn of the event loop.
      server.app.board.teamUpdated(rowA);
      server.app.board.teamUpdated(rowB);
      expect(await eventually(() => frames.length > 0 && basicFrames.length > 0, 3_000)).toBe(true);
      // One frame for both levels, not one per level room...
      expect(frames).toHaveLength(1);
      expect(decodeBoardFrame(frames[0]!).teams).toEqual([rowA, rowB]);
      // ...and a one-level screen gets its level's row only.
      expect(basicFrames).toHaveLength(1);
      expect(decodeBoardFrame(basicFrames[0]!).teams).toEqual([rowA]);
    } finally {
      everyLevel.close();
      basicOnly.close();
    }
  });

  it('answers 404 for an unknown team and 422 for a bad id', async () => {
    expect((await get('/api/descalificarTeam/999999')).statusCode).toBe(404);
    const bad = await get('/api/descalificarTeam/abc');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().success).toBe(false);
  });
});
