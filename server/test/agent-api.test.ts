import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { LEVELS, MESSAGES } from '@concurso/shared';
import {
  attemptCounts,
  blockProcesses,
  connectSocket,
  createTeam,
  generateAgentKey,
  startContest,
  startTestServer,
  type TestServer,
  nextRow,
  nextFrameRows,
} from '@concurso/testkit';
import { boardRows } from '../src/modules/teams/index.js';

describe('agent API (docs/design.md section 6)', () => {
  let server: TestServer;
  let adminToken: string;
  let team: { id: number; levels_id: number };
  let key: string;
  let contestId: number;

  beforeAll(async () => {
    server = await startTestServer();
    ({ adminToken, contestId } = await startContest(server, 'admin_agent'));
    team = await createTeam(server.orm, contestId, LEVELS.intermedio, 'Los Recursivos');
    await blockProcesses(server.orm, contestId, ['Discord.exe', 'chrome.exe']);
  });
  afterAll(async () => server?.close());

  const agentPost = (url: string, payload: unknown, bearer = key) =>
    server.app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      headers: { authorization: `Bearer ${bearer}` },
    });
  const attempt = (event_id = randomUUID()) => ({
    event_id,
    process: 'Discord.exe',
    occurred_at: new Date().toISOString(),
  });
  const countRows = () => attemptCounts(server.orm, team.id);

  it('generates a key once (admin) and serves the config to it', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: `/api/generateAgentKey/${team.id}`,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(res.statusCode).toBe(200);
    key = res.json().data.key;
    expect(key).toMatch(/^ag_/);
    const stored = await server.orm.em
      .fork()
      .execute<Array<{ agent_key_hash: string }>>('select agent_key_hash from teams where id = ?', [team.id]);
    expect(stored[0]!.agent_key_hash).not.toContain(key);

    const config = await server.app.inject({
      method: 'GET',
      url: '/api/agent/config',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(config.statusCode).toBe(200);
    expect(config.json().data).toMatchObject({
      team: { id: team.id, name: 'Los Recursivos', levels_id: LEVELS.intermedio },
      blocked: ['chrome.exe', 'Discord.exe'],
    });
  });

  it('refuses a wrong key with 401 and a staff token on agent routes', async () => {
    const res = await agentPost('/api/agent/attempts', { attempts: [attempt()] }, 'ag_wrong');
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(MESSAGES.agentKeyInvalid);
    const staff = await agentPost('/api/agent/heartbeat', {}, adminToken);
    expect(staff.statusCode).toBe(401);
  });

  it('counts the same event_id once, and pushes the new count to the level room', async () => {
    const screen = await connectSocket(server.url, adminToken, [LEVELS.intermedio]);
    try {
      const before = await countRows();
      const a = attempt();
      const pushed = nextRow(screen, (row) => row.id === team.id && row.number_attempts > before.count);
      const first = await agentPost('/api/agent/attempts', { attempts: [a] });
      expect(first.statusCode).toBe(200);
      expect(first.json().data).toMatchObject({ accepted: [a.event_id], counted: 1 });
      expect((await pushed).number_attempts).toBe(before.count + 1);

      const again = await agentPost('/api/agent/attempts', { attempts: [a, a] });
      expect(again.json().data).toMatchObject({ accepted: [a.event_id, a.event_id], counted: 0 });
      const after = await countRows();
      expect(after).toEqual({ rows: before.rows + 1, count: before.count + 1 });
    } finally {
      screen.close();
    }
  });

  it('gathers changes of one window into one frame, newest row per team', async () => {
    const other = await createTeam(server.orm, contestId, LEVELS.intermedio, 'Los Iterativos');
    const screen = await connectSocket(server.url, adminToken, [LEVELS.intermedio]);
    try {
      const em = server.orm.em.fork();
      const mine = (await boardRows(em, [team.id]))[0]!;
      const theirs = (await boardRows(em, [other.id]))[0]!;
      const frame = nextFrameRows(screen);
      // Three changes in one window: two versions of one team and one of another.
      server.app.board.teamUpdated({ ...mine, version: mine.version + 1, number_attempts: 100 });
      server.app.board.teamUpdated({ ...mine, version: mine.version + 2, number_attempts: 101 });
      server.app.board.teamUpdated(theirs);
      const rows = await frame;
      expect(rows).toHaveLength(2);
      expect(rows.find((r) => r.id === team.id)).toMatchObject({
        version: mine.version + 2,
        number_attempts: 101,
      });
      expect(rows.find((r) => r.id === other.id)).toEqual(theirs);
    } finally {
      screen.close();
    }
  });

  it('keeps number_attempts equal to the rows under 50 concurrent reports', async () => {
    const before = await countRows();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => agentPost('/api/agent/attempts', { attempts: [attempt()] })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    const after = await countRows();
    expect(after.count - before.count).toBe(50);
    expect(after.rows).toBe(after.count);
  });

  it('writes concurrent reports of many teams in groups, each event once, counters equal to rows', async () => {
    const teams = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createTeam(server.orm, contestId, LEVELS.basico, `Grupo ${i}`)),
    );
    const keys = await Promise.all(teams.map((t) => generateAgentKey(server.app, adminToken, t.id)));
    // Each team: 5 requests at once, the last repeating the first's events (an agent's retry) with
    // another case, which the column's collation treats as the same id.
    const firstEvents = teams.map(() => [attempt(`ev-${randomUUID()}`), attempt(`ev-${randomUUID()}`)]);
    const posts = teams.flatMap((_, i) => [
      agentPost('/api/agent/attempts', { attempts: firstEvents[i] }, keys[i]),
      agentPost('/api/agent/attempts', { attempts: [attempt()] }, keys[i]),
      agentPost('/api/agent/attempts', { attempts: [attempt(), attempt(), attempt()] }, keys[i]),
      agentPost('/api/agent/attempts', { attempts: [attempt()] }, keys[i]),
      agentPost(
        '/api/agent/attempts',
        { attempts: firstEvents[i]!.map((a) => ({ ...a, event_id: a.event_id.toUpperCase() })) },
        keys[i],
      ),
    ]);
    const answers = await Promise.all(posts);
    expect(answers.map((r) => r.statusCode)).toEqual(Array(posts.length).fill(200));
    for (const [i, t] of teams.entries()) {
      const mine = answers.slice(i * 5, i * 5 + 5).map((r) => r.json().data);
      // 7 distinct events: whichever of the first request and its retry is written first counts the two.
      expect(mine.reduce((sum, d) => sum + d.counted, 0)).toBe(7);
      expect(await attemptCounts(server.orm, t.id)).toEqual({ rows: 7, count: 7 });
      expect(Math.max(...mine.map((d) => d.number_attempts))).toBe(7);
    }
  });

  it('answers 401 to a cached key whose team was deleted, storing nothing', async () => {
    const doomed = await createTeam(server.orm, contestId, LEVELS.avanzado, 'Los Efímeros');
    const doomedKey = await generateAgentKey(server.app, adminToken, doomed.id);
    expect((await agentPost('/api/agent/heartbeat', {}, doomedKey)).statusCode).toBe(200); // cached now
    // Deleted behind the API's back, so nothing told the cache.
    await server.orm.em.fork().execute('delete from teams where id = ?', [doomed.id]);
    const res = await agentPost('/api/agent/attempts', { attempts: [attempt()] }, doomedKey);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(MESSAGES.agentKeyInvalid);
    const rows = await server.orm.em
      .fork()
      .execute<Array<{ n: number }>>('select count(*) as n from attempts where teams_id = ?', [doomed.id]);
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it('lists the team attempts log with what the agent said, newest first', async () => {
    await agentPost('/api/agent/attempts', {
      attempts: [{ ...attempt(), process: 'AnyDesk.exe', killed: false }],
    });
    const res = await server.app.inject({
      method: 'GET',
      url: `/api/teamAttemptsLog/${team.id}`,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(res.statusCode).toBe(200);
    const rows = res.json().data;
    expect(rows).toHaveLength((await countRows()).rows);
    expect(rows[0]).toMatchObject({ process: 'AnyDesk.exe', killed: false });
    expect(rows[1]).toMatchObject({ process: 'Discord.exe', killed: true });
    expect(Date.parse(rows[0].received_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('validates the batch and changes nothing on bad input', async () => {
    const before = await countRows();
    const res = await agentPost('/api/agent/attempts', {
      attempts: [attempt(), { event_id: 'x', process: '', occurred_at: 'ayer' }],
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(
      expect.arrayContaining(['attempts.1.event_id', 'attempts.1.process', 'attempts.1.occurred_at']),
    );
    expect(await countRows()).toEqual(before);
  });

  it('refuses attempts dated year 0000 or 9999, or out of the window of the server clock, storing nothing', async () => {
    const before = await countRows();
    const day = 24 * 60 * 60 * 1000;
    for (const occurred_at of [
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
      new Date(Date.now() - 31 * day).toISOString(),
      new Date(Date.now() + 2 * day).toISOString(),
    ]) {
      const res = await agentPost('/api/agent/attempts', {
        attempts: [attempt(), { ...attempt(), occurred_at }],
      });
      expect([occurred_at, res.statusCode]).toEqual([occurred_at, 422]);
      expect(Object.keys(res.json().errors)).toEqual(['attempts.1.occurred_at']);
      expect(res.json().errors['attempts.1.occurred_at'][0]).toMatch(/^occurred_at: /);
    }
    expect(await countRows()).toEqual(before);
    // An attempt that waited in an outbox for hours, or from a clock a few minutes ahead, counts.
    const late = await agentPost('/api/agent/attempts', {
      attempts: [
        { ...attempt(), occurred_at: new Date(Date.now() - 6 * 60 * 60 * 1000).toISOString() },
        { ...attempt(), occurred_at: new Date(Date.now() + 5 * 60 * 1000).toISOString() },
      ],
    });
    expect(late.statusCode).toBe(200);
    expect(late.json().data.counted).toBe(2);
  });

  it('refuses a process name with control characters and a killed that is not a boolean', async () => {
    const before = await countRows();
    const res = await agentPost('/api/agent/attempts', {
      attempts: [
        { ...attempt(), process: 'Disc\u0000ord.exe' },
        { ...attempt(), killed: 1 },
      ],
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['attempts.0.process', 'attempts.1.killed']);
    expect(await countRows()).toEqual(before);
  });

  it('turns the team online on the boards at its first heartbeat', async () => {
    await server.orm.em
      .fork()
      .execute('update teams set agent_last_seen = null, agent_online = 0 where id = ?', [team.id]);
    const screen = await connectSocket(server.url, adminToken, [LEVELS.intermedio]);
    try {
      const pushed = nextRow(screen, (row) => row.id === team.id && row.agent_online);
      const res = await agentPost('/api/agent/heartbeat', { hostname: 'lab-07' });
      expect(res.statusCode).toBe(200);
      expect(await pushed).toMatchObject({ id: team.id, agent_online: true });
    } finally {
      screen.close();
    }
  });

  it('stops the old key when a new one is generated', async () => {
    const old = key;
    const res = await server.app.inject({
      method: 'POST',
      url: `/api/generateAgentKey/${team.id}`,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    key = res.json().data.key;
    expect((await agentPost('/api/agent/heartbeat', {}, old)).statusCode).toBe(401);
    expect((await agentPost('/api/agent/heartbeat', {})).statusCode).toBe(200);
  });
});
