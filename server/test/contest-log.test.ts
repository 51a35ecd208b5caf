import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVELS, TEAM_STATUS, contestLogSchema, type ContestLogRow } from '@concurso/shared';
import {
  blockProcesses,
  createContest,
  createTeam,
  generateAgentKey,
  signInStaff,
  startTestServer,
  type TestServer,
  injectAttempts,
  newAttempts,
} from '@concurso/testkit';

/**
 * The contest log of /bitacora: `GET /api/contestLog` lists the active
 * contest's attempts (as agents post them) and status changes (as judges make them), newest first,
 * filtered by level, team and process; and the per-team status log says who blocked a team.
 */
describe('contest log', () => {
  let server: TestServer;
  let admin: string;
  let judge: string;
  let oldTeam: { id: number; name: string };
  let teamA: { id: number; name: string };
  let teamB: { id: number; name: string };
  let contestId: number;

  const call = (url: string, token?: string) =>
    server.app.inject({
      method: 'GET',
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  /** The log as a judge reads it, validated by its shared schema. */
  const log = async (query = '') => {
    const res = await call(`/api/contestLog${query}`, judge);
    if (res.statusCode !== 200) throw new Error(`contestLog${query}: ${res.statusCode} ${res.body}`);
    expect(res.json()).toMatchObject({ success: true });
    return contestLogSchema.parse(res.json().data);
  };
  /** What identifies a row in the expectations: kind, team and process or new status. */
  const brief = (row: ContestLogRow) => [row.kind, row.team?.name ?? null, row.process ?? row.to];
  const postAttempts = async (key: string, processes: string[], occurredAt = new Date()) => {
    const res = await injectAttempts(server.app, key, newAttempts(processes, occurredAt));
    expect(res.statusCode, res.body).toBe(200);
  };
  const toggle = async (teamId: number) => {
    const res = await call(`/api/descalificarTeam/${teamId}`, judge);
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer();
    ({ admin, judge } = await signInStaff(server, 'bitacora'));
  });
  afterAll(async () => server?.close());

  it('answers no contest and no rows while no contest is active; anonymous callers get 401', async () => {
    expect(await log()).toEqual({ contest: null, rows: [], truncated: false });
    expect((await call('/api/contestLog')).statusCode).toBe(401);
  });

  it("lists the active contest's attempts and status changes newest first, with the judge's name", async () => {
    // Last term's contest, with an attempt and a block made while it was the active one.
    const old = await createContest(server.orm, '2026-03-01', { active: true });
    await blockProcesses(server.orm, old.id, ['Discord.exe']);
    oldTeam = await createTeam(server.orm, old.id, LEVELS.basico, 'Equipo del semestre pasado');
    await postAttempts(await generateAgentKey(server.app, admin, oldTeam.id), ['Discord.exe']);
    await toggle(oldTeam.id);
    expect((await log()).rows.map(brief)).toEqual([
      ['estatus', oldTeam.name, 'Descalificado'],
      ['intento', oldTeam.name, 'Discord.exe'],
    ]);

    // This term's contest becomes the active one: the old rows leave the log.
    contestId = (await createContest(server.orm, '2026-11-21', { active: true })).id;
    await blockProcesses(server.orm, contestId, ['Discord.exe', 'chrome.exe']);
    teamA = await createTeam(server.orm, contestId, LEVELS.basico, 'Los Compiladores');
    teamB = await createTeam(server.orm, contestId, LEVELS.avanzado, 'Bit a Bit');
    const occurredAt = new Date(Date.now() - 5_000);
    await postAttempts(
      await generateAgentKey(server.app, admin, teamA.id),
      ['Discord.exe', 'chrome.exe'],
      occurredAt,
    );
    await postAttempts(await generateAgentKey(server.app, admin, teamB.id), ['chrome.exe']);
    await toggle(teamA.id);

    const answer = await log();
    expect(answer.contest).toMatchObject({ id: contestId, calendar: '2026B', active: true });
    expect(answer.truncated).toBe(false);
    expect(answer.rows.map(brief)).toEqual([
      ['estatus', teamA.name, 'Descalificado'],
      ['intento', teamB.name, 'chrome.exe'],
      ['intento', teamA.name, 'chrome.exe'],
      ['intento', teamA.name, 'Discord.exe'],
    ]);
    const times = answer.rows.map((row) => Date.parse(row.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(times[0]).toBeGreaterThan(Date.now() - 60_000);

    const [block, , attemptA] = answer.rows;
    expect(block).toMatchObject({
      team: { id: teamA.id, name: teamA.name },
      level: { id: LEVELS.basico, level: 'Básico' },
      from: 'Activo',
      to: 'Descalificado',
      user: 'Usuario juez_bitacora',
      automatic: false,
      process: null,
      killed: null,
      occurred_at: null,
    });
    expect(attemptA).toMatchObject({
      team: { id: teamA.id, name: teamA.name },
      process: 'chrome.exe',
      killed: true,
      from: null,
      to: null,
      user: null,
      automatic: false,
    });
    // The agent's clock, kept to the second.
    expect(Math.abs(Date.parse(attemptA!.occurred_at!) - occurredAt.getTime())).toBeLessThan(1_000);
  });

  it('filters by level, team and process (the process ignoring case), combined', async () => {
    expect((await log(`?levels_id=${LEVELS.avanzado}`)).rows.map(brief)).toEqual([
      ['intento', teamB.name, 'chrome.exe'],
    ]);
    expect((await log(`?teams_id=${teamA.id}`)).rows.map(brief)).toEqual([
      ['estatus', teamA.name, 'Descalificado'],
      ['intento', teamA.name, 'chrome.exe'],
      ['intento', teamA.name, 'Discord.exe'],
    ]);
    expect((await log('?process=chrome.exe')).rows.map(brief)).toEqual([
      ['intento', teamB.name, 'chrome.exe'],
      ['intento', teamA.name, 'chrome.exe'],
    ]);
    expect((await log(`?process=CHROME.EXE&levels_id=${LEVELS.basico}`)).rows.map(brief)).toEqual([
      ['intento', teamA.name, 'chrome.exe'],
    ]);
    // A team of another contest, or one the level excludes: nothing.
    expect((await log(`?teams_id=${oldTeam.id}`)).rows).toEqual([]);
    expect((await log(`?teams_id=${teamB.id}&levels_id=${LEVELS.basico}`)).rows).toEqual([]);
    // An empty process is no filter.
    expect((await log('?process=')).rows).toHaveLength(4);
  });

  it('refuses a filter that is not an id with 422', async () => {
    for (const query of ['?levels_id=abc', '?teams_id=0', '?levels_id=1.5']) {
      const res = await call(`/api/contestLog${query}`, judge);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().success).toBe(false);
    }
  });

  it('is read by admins too', async () => {
    const res = await call('/api/contestLog', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.rows).toHaveLength(4);
  });

  it("answers automatic: false and the judge in the team's status log", async () => {
    await toggle(teamA.id);
    const res = await call(`/api/teamStatusLog/${teamA.id}`, judge);
    expect(res.statusCode).toBe(200);
    const rows = res.json().data;
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      from: { id: TEAM_STATUS.disqualified, status: 'Descalificado' },
      to: { id: TEAM_STATUS.active, status: 'Activo' },
      user: { name: 'Usuario juez_bitacora' },
      automatic: false,
    });
    expect(rows[1]).toMatchObject({ to: { id: TEAM_STATUS.disqualified }, automatic: false });
    // The unblock is the newest row of the contest log too.
    expect((await log()).rows[0]).toMatchObject({ kind: 'estatus', team: { id: teamA.id }, to: 'Activo' });
  });

  it('keeps the order of a block and an attempt made within one second (times kept in ms)', async () => {
    const key = await generateAgentKey(server.app, admin, teamB.id);
    // At the start of a second, so both land in it: stored to the second, the block came out newest.
    await new Promise((resolve) => setTimeout(resolve, 1_000 - (Date.now() % 1_000) + 5));
    await toggle(teamB.id);
    await postAttempts(key, ['Discord.exe']);
    const [attempt, block] = (await log()).rows;
    expect([attempt, block].map((row) => brief(row!))).toEqual([
      ['intento', teamB.name, 'Discord.exe'],
      ['estatus', teamB.name, 'Descalificado'],
    ]);
    expect(Date.parse(attempt!.at)).toBeGreaterThan(Date.parse(block!.at));
    expect(Math.floor(Date.parse(attempt!.at) / 1_000)).toBe(Math.floor(Date.parse(block!.at) / 1_000));
  });
});
