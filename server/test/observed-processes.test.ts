import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import {
  MESSAGES,
  blockObservedProcessResultSchema,
  observedProcessesSchema,
  type AgentConfig,
  type CatalogChangedPayload,
} from '@concurso/shared';
import {
  agentTeam,
  callAs,
  collect,
  connectSocket,
  createContest,
  eventually,
  injectAttempts,
  injectObserved,
  observedEntry,
  signInStaff,
  startTestServer,
  type TestServer,
} from '@concurso/testkit';
import { Process } from '../src/db/entities.js';

/** A SHA-256 as the agent sends it, different for each `seed`. */
const sha = (seed: string) => createHash('sha256').update(seed).digest('hex');

/** An hour ago in whole seconds (DATETIME keeps no fraction), and `minutes(n)` n minutes after it. */
const base = Math.floor(Date.now() / 1000) * 1000 - 60 * 60 * 1000;
const minutes = (n: number) => new Date(base + n * 60 * 1000);

/**
 * What ran in the lab (docs/design.md section 6), on the server: agents report the executables started on
 * their machines (`POST /api/agent/observed`), merged per team, name and fingerprint; judges and admins list
 * them across machines (`GET /api/observedProcesses`); an admin blocks one with its fingerprint
 * (`POST /api/blockObservedProcess`), which the agents' config then carries.
 */
describe('observed processes', () => {
  let server: TestServer;
  let admin: string;
  let judge: string;
  let contestId: number;
  let ana: { id: number; name: string; key: string };
  let beto: { id: number; name: string; key: string };

  const call = (token: string, url: string, payload?: object) => callAs(server.app, token, url, payload);
  const inventory = async (query = '') => {
    const res = await call(judge, `/api/observedProcesses${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return observedProcessesSchema.parse(res.body.data);
  };
  const rowOf = async (name: string, query = '') => {
    const row = (await inventory(query)).rows.find((r) => r.name.toLowerCase() === name.toLowerCase());
    if (!row) throw new Error(`${name} not in the inventory`);
    return row;
  };
  const report = async (key: string, ...observed: ReturnType<typeof observedEntry>[]) => {
    const res = await injectObserved(server.app, key, observed);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.stored as number;
  };
  const config = async (key: string) => (await call(key, '/api/agent/config')).body.data as AgentConfig;
  const block = (token: string, name: string, sha256?: string | null) =>
    call(token, '/api/blockObservedProcess', { name, ...(sha256 === undefined ? {} : { sha256 }) });
  const blockedSet = async () =>
    (
      (await call(admin, `/api/processContest/${contestId}`)).body.data as Array<{
        processes: { name: string };
      }>
    )
      .map((row) => row.processes.name)
      .sort();
  const updateContest = (payload: object) =>
    call(admin, '/api/updateContest', { id: contestId, date: '2026-11-21', ...payload });

  beforeAll(async () => {
    server = await startTestServer({ logLevel: 'error' });
    ({ admin, judge } = await signInStaff(server, 'observados'));
    contestId = (await createContest(server.orm)).id;
    beto = await agentTeam(server, admin, { contestId, name: 'Beto y los Bits', blocked: ['Discord.exe'] });
    ana = await agentTeam(server, admin, { contestId, name: 'Ana Lógica' });
  });
  afterAll(async () => server?.close());

  it('merges one team’s reports per name and fingerprint: earliest first, latest last, starts summed', async () => {
    const code = sha('code-1.95');
    expect(
      await report(
        ana.key,
        observedEntry('code.exe', code, { starts: 2, firstSeen: minutes(10), lastSeen: minutes(20) }),
        observedEntry('notas.exe', null, { firstSeen: minutes(5) }),
      ),
    ).toBe(2);
    // A later report of the same executable, named with another case: the same row.
    await report(
      ana.key,
      observedEntry('Code.exe', code, { starts: 3, firstSeen: minutes(15), lastSeen: minutes(30) }),
    );
    // An earlier sighting moves first_seen back and leaves last_seen.
    await report(ana.key, observedEntry('code.exe', code, { firstSeen: minutes(1), lastSeen: minutes(2) }));

    const rows = await server.orm.em
      .fork()
      .execute<Array<{ count: number }>>(
        'select count from observed_processes where teams_id = ? and sha256 = ?',
        [ana.id, code],
      );
    expect(rows.map((r) => Number(r.count))).toEqual([6]);
    expect(await rowOf('code.exe')).toMatchObject({
      sha256: code,
      machines: 1,
      teams: ['Ana Lógica'],
      first_seen: minutes(1).toISOString(),
      last_seen: minutes(30).toISOString(),
      count: 6,
      blocked_as: null,
      copy_of: null,
    });
    expect(await rowOf('notas.exe')).toMatchObject({ sha256: null, machines: 1, count: 1 });
  });

  it('lists an executable started on two machines once with machines = 2, most machines first', async () => {
    await report(beto.key, observedEntry('code.exe', sha('code-1.95'), { firstSeen: minutes(40) }));
    // Same name, another fingerprint (another version): a row of its own.
    await report(beto.key, observedEntry('code.exe', sha('code-1.96'), { firstSeen: minutes(41) }));

    const { contest, rows } = await inventory();
    expect(contest).toMatchObject({ id: contestId, active: true });
    expect(rows.map((r) => [r.name.toLowerCase(), r.sha256, r.machines])).toEqual([
      ['code.exe', sha('code-1.95'), 2],
      ['code.exe', sha('code-1.96'), 1],
      ['notas.exe', null, 1],
    ]);
    expect(rows[0]).toMatchObject({ teams: ['Ana Lógica', 'Beto y los Bits'], count: 7 });
  });

  it('names every team of a row, accents whole, however many (no group_concat cut at 1,024 bytes)', async () => {
    const many = [];
    for (let i = 10; i < 50; i++) {
      many.push(await agentTeam(server, admin, { contestId, name: `Máquina número ${i} del laboratorio` }));
    }
    for (const team of many) await report(team.key, observedEntry('editor-común.exe', sha('editor-1')));
    const row = await rowOf('editor-común.exe');
    expect(row.machines).toBe(40);
    expect(row.teams).toEqual(many.map((team) => team.name).sort());
    expect(row.teams[0]).toBe('Máquina número 10 del laboratorio');
  });

  it('names the blocked process a row already is, by name as the agent matches it or by fingerprint', async () => {
    // Discord.exe is blocked; the agent would match "discord" (no .exe, any case) to it.
    await report(beto.key, observedEntry('DISCORD', sha('discord-1')));
    expect((await rowOf('discord')).blocked_as).toBe('Discord.exe');

    // A fingerprint claimed for Discord.exe (from an attempt) marks a renamed copy once it applies to
    // every machine (confirmed by an admin, or claimed by the quorum of teams).
    const attempt = await injectAttempts(server.app, beto.key, [
      {
        event_id: 'renombrado-1',
        process: 'Discord.exe',
        occurred_at: new Date().toISOString(),
        sha256: sha('discord-2'),
        executable: 'calc.exe',
      },
    ]);
    expect(attempt.statusCode, attempt.body).toBe(200);
    await report(beto.key, observedEntry('calc.exe', sha('discord-2')));
    // Until then it is a copy that only Beto's machines end: said so, not silently «no state».
    expect(await rowOf('calc.exe')).toMatchObject({ blocked_as: null, copy_of: 'Discord.exe' });
    const discordId = (await server.orm.em.fork().findOneOrFail(Process, { name: 'Discord.exe' })).id;
    const claims = await call(admin, `/api/processFingerprints/${discordId}`);
    const claim = (claims.body.data.rows as Array<{ id: number; sha256: string }>).find(
      (row) => row.sha256 === sha('discord-2'),
    )!;
    expect((await call(admin, `/api/confirmFingerprint/${claim.id}`, {})).status).toBe(200);
    expect(await rowOf('calc.exe')).toMatchObject({ blocked_as: 'Discord.exe', copy_of: null });
    expect(await rowOf('notas.exe')).toMatchObject({ blocked_as: null, copy_of: null });
  });

  it('calls a copy no copy once its fingerprint is removed (denied under every name)', async () => {
    const attempt = await injectAttempts(server.app, ana.key, [
      {
        event_id: 'renombrado-ana-1',
        process: 'Discord.exe',
        occurred_at: new Date().toISOString(),
        sha256: sha('discord-3'),
        executable: 'paint.exe',
      },
    ]);
    expect(attempt.statusCode, attempt.body).toBe(200);
    await report(beto.key, observedEntry('paint.exe', sha('discord-3')));
    expect(await rowOf('paint.exe')).toMatchObject({ blocked_as: null, copy_of: 'Discord.exe' });

    const discordId = (await server.orm.em.fork().findOneOrFail(Process, { name: 'Discord.exe' })).id;
    const claims = await call(admin, `/api/processFingerprints/${discordId}`);
    const claim = (claims.body.data.rows as Array<{ id: number; sha256: string }>).find(
      (row) => row.sha256 === sha('discord-3'),
    )!;
    expect((await call(admin, `/api/deleteFingerprint/${claim.id}`, {})).status).toBe(200);
    expect(await rowOf('paint.exe')).toMatchObject({ blocked_as: null, copy_of: null });
  });

  it('lets judges list but not block, and takes reports only with an agent key', async () => {
    expect((await call(judge, '/api/observedProcesses')).status).toBe(200);
    const refused = await block(judge, 'code.exe', sha('code-1.95'));
    expect(refused.status).toBe(403);
    expect((await server.app.inject({ method: 'GET', url: '/api/observedProcesses' })).statusCode).toBe(401);

    const staff = await call(admin, '/api/agent/observed', { observed: [observedEntry('x.exe')] });
    expect(staff.status).toBe(401);
    expect(staff.body.message).toBe(MESSAGES.agentKeyInvalid);
    const wrong = await injectObserved(server.app, 'ag_wrong', [observedEntry('x.exe')]);
    expect(wrong.statusCode).toBe(401);
    expect((await inventory()).rows.map((r) => r.name)).not.toContain('x.exe');
  });

  it('refuses a bad fingerprint or name with 422, and an unknown contest with 404', async () => {
    const upper = await block(admin, 'code.exe', sha('x').toUpperCase());
    expect(upper.status).toBe(422);
    expect(upper.body.errors.sha256).toBeDefined();
    const empty = await injectObserved(server.app, ana.key, []);
    expect(empty.statusCode).toBe(422);
    const badSha = await injectObserved(server.app, ana.key, [observedEntry('a.exe', 'abc')]);
    expect(badSha.statusCode).toBe(422);
    const badName = await block(admin, 'C:/juegos/a.exe');
    expect(badName.status).toBe(422);
    expect(badName.body.errors.name).toBeDefined();

    const missing = await call(judge, '/api/observedProcesses?contests_id=999999');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(MESSAGES.contestNotFound);
  });

  it('blocks an executable with its fingerprint: the set, the config and the screens follow; twice changes nothing', async () => {
    const screen = await connectSocket(server.url, admin);
    const changed = collect(screen, 'catalog.changed');
    try {
      const code = sha('code-1.95');
      const first = await block(admin, 'code.exe', code);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body.message).toBe(MESSAGES.saved);
      const data = blockObservedProcessResultSchema.parse(first.body.data);
      expect(data).toMatchObject({ name: 'code.exe', contests_id: contestId });
      expect(await blockedSet()).toEqual(['code.exe', 'Discord.exe'].sort());
      expect(
        await eventually(
          () => changed.some((c: CatalogChangedPayload) => c.catalog === 'contest_processes'),
          3_000,
        ),
      ).toBe(true);

      const agent = await config(ana.key);
      expect(agent.blocked).toContain('code.exe');
      expect(agent.fingerprints).toContainEqual({ process: 'code.exe', sha256: code });
      expect((await rowOf('code.exe')).blocked_as).toBe('code.exe');

      // Again, named with another case: the same process, nothing added.
      const again = await block(admin, 'CODE.EXE', code);
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual(data);
      expect(await blockedSet()).toEqual(['code.exe', 'Discord.exe'].sort());
      expect((await config(ana.key)).fingerprints.filter((f) => f.process === 'code.exe')).toHaveLength(1);

      // Without a fingerprint (the agent could not read the file): by name only.
      const notas = await block(admin, 'notas.exe', null);
      expect(notas.status).toBe(200);
      expect((await config(ana.key)).blocked).toContain('notas.exe');
    } finally {
      screen.close();
    }
  });

  it('round-trips observe_processes: on by default, kept when absent, and off stores nothing', async () => {
    const created = await call(admin, '/api/createContest', { date: '2027-03-01' });
    expect(created.body.data).toMatchObject({ observe_processes: true, active: false });
    const off = await call(admin, '/api/createContest', { date: '2027-03-02', observe_processes: false });
    expect(off.body.data).toMatchObject({ observe_processes: false });

    expect((await updateContest({ observe_processes: false })).body.data).toMatchObject({
      observe_processes: false,
    });
    expect((await updateContest({ max_attempts: 50 })).body.data).toMatchObject({
      observe_processes: false,
      max_attempts: 50,
    });
    expect((await config(ana.key)).observe).toBe(false);
    const before = await inventory();
    expect(await report(ana.key, observedEntry('apagado.exe', sha('apagado')))).toBe(0);
    expect(await inventory()).toEqual(before);

    await updateContest({ observe_processes: true, max_attempts: null });
    expect((await config(ana.key)).observe).toBe(true);
  });

  it('refuses reports of a team outside the active contest (409), lists another contest by id, and has nothing to block with none active', async () => {
    const other = await createContest(server.orm, '2027-04-01', { active: true });
    const em = server.orm.em.fork();
    try {
      // A key of a contest that is not the active one is told so and stores nothing.
      const refused = await injectObserved(server.app, ana.key, [observedEntry('inactivo.exe')]);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ success: false, message: MESSAGES.agentContestInactive });
      expect(await inventory()).toEqual({
        contest: expect.objectContaining({ id: other.id }),
        rows: [],
        total: 0,
      });
      const old = await inventory(`?contests_id=${contestId}`);
      expect(old.contest).toMatchObject({ id: contestId, active: false });
      expect(old.rows.map((r) => r.name)).not.toContain('inactivo.exe');
      expect(old.rows.length).toBeGreaterThan(0);

      await em.execute('update contests set active_key = null', [], 'run');
      expect(await inventory()).toEqual({ contest: null, rows: [], total: 0 });
      const none = await block(admin, 'juego.exe', sha('juego'));
      expect(none.status).toBe(409);
      expect(none.body.message).toBe(MESSAGES.noActiveContest);
      const learned = await em.execute<Array<{ n: number }>>(
        "select (select count(*) from processes where name = 'juego.exe') + (select count(*) from process_fingerprints where sha256 = ?) as n",
        [sha('juego')],
      );
      expect(Number(learned[0]!.n)).toBe(0);
    } finally {
      expect((await call(admin, `/api/activateContest/${contestId}`, {})).status).toBe(200);
    }
  });
});
