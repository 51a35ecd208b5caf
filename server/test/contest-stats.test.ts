import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LEVELS,
  STATS_MAX_POINTS,
  contestReportSchema,
  contestStatsSchema,
  type ContestReport,
  type ContestStats,
} from '@concurso/shared';
import {
  agentTeam,
  createContest,
  signInStaff,
  startTestServer,
  type TestServer,
  injectAttempts,
} from '@concurso/testkit';
import { Member } from '../src/db/entities.js';
import { bucketMinutes } from '../src/modules/stats/stats-series.js';

/** Eight attempts' receipt times between 16:00:59 and 16:05:31 of 2026-11-21 (UTC). */
const FIVE_MINUTES_LATER = [
  '2026-11-21 16:00:59',
  '2026-11-21 16:01:00',
  '2026-11-21 16:04:10',
  '2026-11-21 16:04:20',
  '2026-11-21 16:04:59',
  '2026-11-21 16:05:00',
  '2026-11-21 16:05:30',
  '2026-11-21 16:05:31',
];

describe('contest statistics and report', () => {
  let server: TestServer;
  let judge: string;
  let admin: string;
  let contestId: number;
  let teamA: { id: number; key: string };
  let teamB: { id: number; key: string };
  let teamC: { id: number; key: string };

  // Attempts of the contest, by team: Discord.exe 4, chrome.exe 3, AnyDesk.exe 1, zoom.exe 1 (9).
  const ATTEMPTS: Array<[() => { key: string }, string[]]> = [
    [() => teamA, ['Discord.exe', 'Discord.exe', 'Discord.exe', 'chrome.exe', 'zoom.exe']],
    [() => teamB, ['chrome.exe', 'chrome.exe', 'Discord.exe', 'AnyDesk.exe']],
  ];

  beforeAll(async () => {
    server = await startTestServer();
    ({ judge, admin } = await signInStaff(server, 'stats'));
    // Another contest with attempts of its own, made while it was the active one (a key
    // outside the active contest is refused): none of them may count.
    const other = await createContest(server.orm, '2025-03-01', { active: true });
    const stranger = await agentTeam(server, admin, { contestId: other.id, name: 'Otro concurso' });
    expect((await post(stranger.key, ['Discord.exe', 'Discord.exe'])).statusCode).toBe(200);
    contestId = (await createContest(server.orm, '2026-11-21', { active: true })).id;
    teamA = await agentTeam(server, admin, { contestId, levelsId: LEVELS.avanzado, name: 'Los Punteros' });
    teamB = await agentTeam(server, admin, { contestId, levelsId: LEVELS.basico, name: 'Bit a Bit' });
    teamC = await agentTeam(server, admin, { contestId, levelsId: LEVELS.basico, name: 'Alfa' });

    for (const [team, processes] of ATTEMPTS) {
      const res = await post(team().key, processes);
      expect(res.statusCode).toBe(200);
    }
    const em = server.orm.em.fork();
    for (const code of ['A1', 'A2']) {
      em.create(Member, {
        code,
        name: `Integrante ${code}`,
        semester: 3,
        team: teamA.id,
        contest: contestId,
      });
    }
    em.create(Member, { code: 'B1', name: 'Integrante B1', semester: 5, team: teamB.id, contest: contestId });
    await em.flush();
  });
  afterAll(async () => server?.close());

  /** Posts one attempt per process name as the agent of `key`. */
  const post = (key: string, processes: readonly string[]) => injectAttempts(server.app, key, processes);
  const get = (url: string, token: string | null = judge) =>
    server.app.inject({
      method: 'GET',
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  const stats = async (): Promise<ContestStats> => {
    const res = await get(`/api/contestStats/${contestId}`);
    expect(res.statusCode).toBe(200);
    return contestStatsSchema.parse(res.json().data);
  };
  const report = async (): Promise<ContestReport> => {
    const res = await get(`/api/contestReport/${contestId}`);
    expect(res.statusCode).toBe(200);
    return contestReportSchema.parse(res.json().data);
  };
  /** Sets `received_at` of the contest's attempts, in id order, to `times` (SQL datetimes, UTC). */
  const receivedAt = async (times: string[]) => {
    const em = server.orm.em.fork();
    const ids = await em.execute<Array<{ id: number }>>(
      'select id from attempts where contests_id = ? order by id',
      [contestId],
    );
    expect(ids).toHaveLength(times.length);
    for (const [i, { id }] of ids.entries()) {
      await em.execute('update attempts set received_at = ? where id = ?', [times[i], id]);
    }
  };

  it('counts the teams, the attempts and the most attempted processes of the contest only (judge)', async () => {
    const data = await stats();
    expect(data.contest).toMatchObject({ id: contestId, calendar: '2026B', date: '2026-11-21' });
    expect(data.teams).toBe(3);
    expect(data.teams_blocked).toBe(0);
    expect(data.attempts).toBe(9);
    // Most first; AnyDesk.exe and zoom.exe tie at 1 and go by name.
    expect(data.top_processes).toEqual([
      { process: 'Discord.exe', attempts: 4 },
      { process: 'chrome.exe', attempts: 3 },
      { process: 'AnyDesk.exe', attempts: 1 },
      { process: 'zoom.exe', attempts: 1 },
    ]);
    // Everything was just received: one or two minutes, adding up to every attempt.
    expect(data.bucket_minutes).toBe(1);
    expect(data.attempts_per_minute.reduce((sum, p) => sum + p.attempts, 0)).toBe(9);
  });

  it('gives one point per minute from the first attempt to the last, zero-filled', async () => {
    await receivedAt(['2026-11-21 16:00:05', ...FIVE_MINUTES_LATER]);
    const data = await stats();
    expect(data.bucket_minutes).toBe(1);
    expect(data.attempts_per_minute).toEqual([
      { minute: '2026-11-21T16:00:00.000Z', attempts: 2 },
      { minute: '2026-11-21T16:01:00.000Z', attempts: 1 },
      { minute: '2026-11-21T16:02:00.000Z', attempts: 0 },
      { minute: '2026-11-21T16:03:00.000Z', attempts: 0 },
      { minute: '2026-11-21T16:04:00.000Z', attempts: 3 },
      { minute: '2026-11-21T16:05:00.000Z', attempts: 3 },
    ]);
  });

  it('widens the points of a long contest so the series stays within STATS_MAX_POINTS', async () => {
    // Three days and five minutes: 4,326 minutes, 15 per point (289 points).
    await receivedAt(['2026-11-18 16:00:05', ...FIVE_MINUTES_LATER]);
    const data = await stats();
    expect(data.bucket_minutes).toBe(15);
    const series = data.attempts_per_minute;
    expect(series.length).toBeLessThanOrEqual(STATS_MAX_POINTS);
    expect(series).toHaveLength(289);
    expect(series[0]).toEqual({ minute: '2026-11-18T16:00:00.000Z', attempts: 1 });
    // 16:00 + 288 × 15 min = 16:00 three days later: the last eight attempts fall in it.
    expect(series.at(-1)).toEqual({ minute: '2026-11-21T16:00:00.000Z', attempts: 8 });
    expect(series.slice(1, -1).every((p) => p.attempts === 0)).toBe(true);
  });

  it('picks the narrowest point width that fits (pure rule)', () => {
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 21, 16, 0, 30) + minutes * 60_000);
    expect(bucketMinutes(at(0), at(0))).toBe(1);
    expect(bucketMinutes(at(0), at(STATS_MAX_POINTS - 1))).toBe(1);
    expect(bucketMinutes(at(0), at(STATS_MAX_POINTS))).toBe(2);
    expect(bucketMinutes(at(0), at(24 * 60 * 300))).toBe(1_440);
    expect(bucketMinutes(at(0), at(24 * 60 * 1_000))).toBe(1_440 * 3);
  });

  it('counts a blocked team and reports each block and unblock with the judge, or automático, oldest first', async () => {
    const toggle = async (teamId: number) =>
      expect((await get(`/api/descalificarTeam/${teamId}`)).statusCode).toBe(200);
    await toggle(teamA.id); // blocked by the judge
    await toggle(teamA.id); // unblocked
    await toggle(teamA.id); // blocked again
    // The automatic block: with max_attempts 1, Alfa's first attempt blocks it, no user.
    const contest = (await get('/api/getContests', admin))
      .json()
      .data.find((c: { id: number }) => c.id === contestId);
    const setMax = async (max_attempts: number | null) => {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/updateContest',
        headers: { authorization: `Bearer ${admin}` },
        payload: { id: contestId, date: contest.date, max_attempts },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await setMax(1);
    expect((await post(teamC.key, ['zoom.exe'])).statusCode).toBe(200);
    await setMax(null);

    expect((await stats()).teams_blocked).toBe(2);
    const data = await report();
    expect(data.teams_blocked).toBe(2);
    // Every block and unblock, oldest first (the unblock between two blocks shows too).
    const judgeName = 'Usuario juez_stats';
    expect(
      data.status_changes.map((row) => [
        row.team,
        row.level,
        row.from.status,
        row.to.status,
        row.user,
        row.automatic,
      ]),
    ).toEqual([
      ['Los Punteros', 'Avanzado', 'Activo', 'Descalificado', judgeName, false],
      ['Los Punteros', 'Avanzado', 'Descalificado', 'Activo', judgeName, false],
      ['Los Punteros', 'Avanzado', 'Activo', 'Descalificado', judgeName, false],
      ['Alfa', 'Básico', 'Activo', 'Descalificado', null, true],
    ]);
    for (const row of data.status_changes)
      expect(Math.abs(Date.parse(row.at) - Date.now())).toBeLessThan(60_000);
    const times = data.status_changes.map((row) => Date.parse(row.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('reports every team with its level, coach, members, attempts and status, by level then name', async () => {
    const data = await report();
    expect(data.attempts).toBe(10); // the nine above and Alfa's, which blocked it
    expect(data.top_processes[0]).toEqual({ process: 'Discord.exe', attempts: 4 });
    expect(data.teams).toEqual([
      {
        id: teamC.id,
        name: 'Alfa',
        level: 'Básico',
        coach: 'Mtra. Laura Méndez',
        members: 0,
        number_attempts: 1,
        status: 'Descalificado',
      },
      {
        id: teamB.id,
        name: 'Bit a Bit',
        level: 'Básico',
        coach: 'Mtra. Laura Méndez',
        members: 1,
        number_attempts: 4,
        status: 'Activo',
      },
      {
        id: teamA.id,
        name: 'Los Punteros',
        level: 'Avanzado',
        coach: 'Mtra. Laura Méndez',
        members: 2,
        number_attempts: 5,
        status: 'Descalificado',
      },
    ]);
  });

  it('answers an empty series for a contest without attempts, 404 for an unknown one, 401 anonymous', async () => {
    const empty = (await createContest(server.orm, '2024-02-01')).id;
    const res = await get(`/api/contestStats/${empty}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      attempts: 0,
      attempts_per_minute: [],
      top_processes: [],
      teams: 0,
      teams_blocked: 0,
    });
    for (const url of ['/api/contestStats/999999', '/api/contestReport/999999']) {
      const missing = await get(url);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ success: false, message: 'No se encontró el concurso.' });
    }
    for (const url of [`/api/contestStats/${contestId}`, `/api/contestReport/${contestId}`]) {
      expect((await get(url, null)).statusCode).toBe(401);
    }
  });
});
