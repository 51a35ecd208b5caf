import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamAttemptsSchema } from '@concurso/shared';
import { DEFAULT_DEMO_JUDGE_PASSWORD, calendarOf, seedDemo } from '../src/db/demo-seed.js';
import { login, startTestServer, type TestServer } from '@concurso/testkit';

/** Row counts of the tables the demo fills, to prove a second run changes nothing. */
async function counts(server: TestServer): Promise<Record<string, number>> {
  const tables = [
    'schools',
    'departaments',
    'careers',
    'coaches',
    'contests',
    'teams',
    'members',
    'processes',
    'contest_processes',
    'users',
  ];
  const result: Record<string, number> = {};
  for (const table of tables) {
    const rows = await server.orm.em
      .fork()
      .execute<Array<{ n: number }>>(`select count(*) as n from \`${table}\``);
    result[table] = Number(rows[0]?.n);
  }
  return result;
}

describe('demo seed (docs/design.md section 7)', () => {
  let server: TestServer;
  let contestId: number;
  const password = process.env.DEMO_JUDGE_PASSWORD || DEFAULT_DEMO_JUDGE_PASSWORD;

  beforeAll(async () => {
    server = await startTestServer();
    const result = await seedDemo(server.orm.em.fork());
    expect(result.created).toBe(true);
    contestId = result.contestId;
  });
  afterAll(async () => server?.close());

  it('derives the calendar from the date', () => {
    expect(calendarOf('2026-01-15')).toBe('2026A');
    expect(calendarOf('2026-06-30')).toBe('2026A');
    expect(calendarOf('2026-07-01')).toBe('2026B');
    expect(calendarOf('2026-11-21')).toBe('2026B');
  });

  it('shows about 30 teams over the three levels to the demo judge', async () => {
    const token = await login(server.app, 'juez', password);
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/teamAttempts',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    const board = teamAttemptsSchema.parse(res.json());
    expect(board.contest?.id).toBe(contestId);
    expect(board.contest?.calendar).toBe(calendarOf(board.contest!.date));
    for (const level of [board.basico, board.intermedio, board.avanzado])
      expect(level.length).toBeGreaterThan(0);
    const total = board.basico.length + board.intermedio.length + board.avanzado.length;
    expect(total).toBeGreaterThanOrEqual(24);
    expect(total).toBeLessThanOrEqual(36);
    const names = [...board.basico, ...board.intermedio, ...board.avanzado].map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('gives every team 2 or 3 members with a semester 1..10', async () => {
    const rows = await server.orm.em
      .fork()
      .execute<Array<{ id: number; n: number; min_semester: number | null; max_semester: number | null }>>(
        `select t.id, count(m.id) as n, min(m.semester) as min_semester, max(m.semester) as max_semester
           from teams t left join members m on m.teams_id = t.id
          where t.contests_id = ? group by t.id`,
        [contestId],
      );
    expect(rows.length).toBeGreaterThanOrEqual(24);
    for (const row of rows) {
      expect(Number(row.n)).toBeGreaterThanOrEqual(2);
      expect(Number(row.n)).toBeLessThanOrEqual(3);
      expect(Number(row.min_semester)).toBeGreaterThanOrEqual(1);
      expect(Number(row.max_semester)).toBeLessThanOrEqual(10);
    }
  });

  it("blocks the catalogue's executables in the contest", async () => {
    const rows = await server.orm.em
      .fork()
      .execute<Array<{ name: string }>>(
        'select p.name from contest_processes cp join processes p on p.id = cp.processes_id where cp.contests_id = ?',
        [contestId],
      );
    const blocked = rows.map((r) => r.name);
    expect(blocked).toContain('Discord.exe');
    expect(blocked).toContain('chrome.exe');
    expect(blocked).toContain('telegram-desktop');
  });

  it('runs once: a second call returns created:false and changes no counts', async () => {
    const before = await counts(server);
    const again = await seedDemo(server.orm.em.fork());
    expect(again).toMatchObject({ created: false, contestId, teams: before.teams, judge: null });
    expect(await counts(server)).toEqual(before);
  });
});
