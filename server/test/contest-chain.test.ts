import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVELS, chainVerdictSchema, chainVerdictText, type ChainVerdict } from '@concurso/shared';
import {
  agentTeam,
  callAs,
  createContest,
  createTeam,
  injectAttempts,
  newAttempts,
  signInStaff,
  startTestServer,
  type TestServer,
} from '@concurso/testkit';
import { batchRunner, createSqlPool, sqlBatchTransaction } from '../src/db/sql.js';
import { attemptChainStatements, lockChainHead, verifyChain } from '../src/modules/chain/index.js';

/**
 * The contest's chained log (server/src/modules/chain/README.md): attempts posted through the agent's
 * route, a judge's block, an automatic block, a message and a change of the allowed sites each add a
 * chain row in their own transaction; `GET /api/contestLog/verify` recomputes the chain and finds a
 * row changed or deleted behind the server's back, naming the first bad row; many teams' attempts at
 * once still make one chain (no fork, no gap).
 */
describe('contest chain', () => {
  let server: TestServer;
  let admin: string;
  let judge: string;
  let contestId: number;

  /** Runs SQL straight on the database, as someone with its password would. */
  const sql = (text: string, params: unknown[] = []) =>
    server.orm.em.fork().execute<Array<Record<string, unknown>>>(text, params);
  /** The verdict as a judge asks for it, validated by its shared schema. */
  const verify = async (query = ''): Promise<ChainVerdict> => {
    const res = await callAs(server.app, judge, `/api/contestLog/verify${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return chainVerdictSchema.parse(res.body.data);
  };
  /** The contest's chain rows in order: seq, kind and the row each covers. */
  const chain = async (contest = contestId) =>
    (
      await sql('select seq, kind, ref_id from contest_chain where contests_id = ? order by seq', [contest])
    ).map((row) => ({ seq: Number(row.seq), kind: String(row.kind), ref: Number(row.ref_id) }));
  const post = async (key: string, processes: string[]) => {
    const res = await injectAttempts(server.app, key, newAttempts(processes));
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer();
    ({ admin, judge } = await signInStaff(server, 'cadena'));
    contestId = (await createContest(server.orm, '2026-11-21', { active: true })).id;
  });
  afterAll(async () => server?.close());

  it('chains attempts, a judge block, a message and a change of the allowed sites; verify says intact', async () => {
    expect(await verify()).toEqual({ contests_id: contestId, ok: true, count: 0 });
    const team = await agentTeam(server, admin, { contestId, blocked: ['Discord.exe', 'chrome.exe'] });
    await post(team.key, ['Discord.exe', 'chrome.exe']);
    const toggled = await callAs(server.app, judge, `/api/descalificarTeam/${team.id}`);
    expect(toggled.status, JSON.stringify(toggled.body)).toBe(200);
    const sent = await callAs(server.app, judge, '/api/sendMessage', {
      target: 'equipo',
      id: team.id,
      text: 'Cierre el navegador',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const sites = await callAs(server.app, admin, '/api/updateAllowedSites', {
      contests_id: contestId,
      allowed_sites: ['omegaup.com'],
    });
    expect(sites.status, JSON.stringify(sites.body)).toBe(200);

    const attempts = await sql('select id from attempts where teams_id = ? order by id', [team.id]);
    const [change] = await sql('select id from team_status_changes where teams_id = ?', [team.id]);
    const [message] = await sql('select id from messages where contests_id = ?', [contestId]);
    const [network] = await sql('select id from contest_network_changes where contests_id = ?', [contestId]);
    expect(await chain()).toEqual([
      { seq: 1, kind: 'intento', ref: Number(attempts[0]!.id) },
      { seq: 2, kind: 'intento', ref: Number(attempts[1]!.id) },
      { seq: 3, kind: 'estatus', ref: Number(change!.id) },
      { seq: 4, kind: 'mensaje', ref: Number(message!.id) },
      { seq: 5, kind: 'red', ref: Number(network!.id) },
    ]);
    const verdict = await verify();
    expect(verdict).toEqual({ contests_id: contestId, ok: true, count: 5 });
    expect(chainVerdictText(verdict)).toBe('Cadena íntegra: 5 registros');
    // The same contest named explicitly; an unknown one is 404; anonymous callers 401.
    expect(await verify(`?contests_id=${contestId}`)).toEqual(verdict);
    expect((await callAs(server.app, judge, '/api/contestLog/verify?contests_id=999999')).status).toBe(404);
    expect((await server.app.inject({ method: 'GET', url: '/api/contestLog/verify' })).statusCode).toBe(401);
  });

  it("finds an attempt's process changed by SQL at its row, and nothing once it is put back", async () => {
    const [first] = await chain();
    const [row] = await sql('select process from attempts where id = ?', [first!.ref]);
    await sql("update attempts set process = 'x' where id = ?", [first!.ref]);
    const verdict = await verify();
    expect(verdict).toEqual({
      contests_id: contestId,
      ok: false,
      count: 0,
      first_bad: { seq: 1, kind: 'intento', ref: first!.ref, reason: 'contenido' },
    });
    expect(chainVerdictText(verdict)).toBe(
      `La cadena se rompe en el registro 1 (intento ${first!.ref}): su contenido no coincide`,
    );
    await sql('update attempts set process = ? where id = ?', [row!.process, first!.ref]);
    expect((await verify()).ok).toBe(true);
  });

  it("finds a status change's new status changed by SQL", async () => {
    const status = (await chain()).find((link) => link.kind === 'estatus')!;
    const [row] = await sql('select `to` from team_status_changes where id = ?', [status.ref]);
    await sql('update team_status_changes set `to` = 1 where id = ?', [status.ref]);
    expect((await verify()).first_bad).toEqual({
      seq: status.seq,
      kind: 'estatus',
      ref: status.ref,
      reason: 'contenido',
    });
    await sql('update team_status_changes set `to` = ? where id = ?', [row!.to, status.ref]);
    expect((await verify()).ok).toBe(true);
  });

  it('finds a deleted middle row: the attempt itself, or its chain row', async () => {
    const second = (await chain())[1]!;
    const [row] = await sql('select * from attempts where id = ?', [second.ref]);
    await sql('delete from attempts where id = ?', [second.ref]);
    expect(await verify()).toMatchObject({
      ok: false,
      count: 1,
      first_bad: { seq: 2, kind: 'intento', ref: second.ref, reason: 'falta' },
    });
    const columns = Object.keys(row!);
    await sql(
      `insert into attempts (${columns.map((c) => `\`${c}\``).join(', ')}) values (${columns.map(() => '?').join(', ')})`,
      columns.map((c) => row![c]),
    );
    expect((await verify()).ok).toBe(true);

    // The chain row itself deleted: the next one no longer links to the row before it.
    const [link] = await sql('select * from contest_chain where contests_id = ? and seq = 3', [contestId]);
    await sql('delete from contest_chain where contests_id = ? and seq = 3', [contestId]);
    const verdict = await verify();
    expect(verdict).toMatchObject({
      ok: false,
      count: 2,
      first_bad: { seq: 4, kind: 'mensaje', reason: 'enlace' },
    });
    expect(chainVerdictText(verdict)).toMatch(
      /^La cadena se rompe en el registro 4 \(mensaje \d+\): no enlaza con el registro anterior$/,
    );
    const linkColumns = Object.keys(link!);
    await sql(
      `insert into contest_chain (${linkColumns.join(', ')}) values (${linkColumns.map(() => '?').join(', ')})`,
      linkColumns.map((c) => link![c]),
    );
    expect((await verify()).ok).toBe(true);

    // Its last rows deleted: the chain ends before its head.
    const [tail] = await sql('select * from contest_chain where contests_id = ? and seq = 5', [contestId]);
    await sql('delete from contest_chain where contests_id = ? and seq = 5', [contestId]);
    expect(await verify()).toMatchObject({
      ok: false,
      count: 4,
      first_bad: { seq: 5, kind: null, ref: null, reason: 'cola' },
    });
    const tailColumns = Object.keys(tail!);
    await sql(
      `insert into contest_chain (${tailColumns.join(', ')}) values (${tailColumns.map(() => '?').join(', ')})`,
      tailColumns.map((c) => tail![c]),
    );
    expect((await verify()).ok).toBe(true);
  });

  it('chains an automatic block inside the attempts group that caused it, and an agent event', async () => {
    const other = (await createContest(server.orm, '2026-11-28', { active: true })).id;
    await sql('update contests set max_attempts = 2 where id = ?', [other]);
    const team = await agentTeam(server, admin, {
      contestId: other,
      levelsId: LEVELS.avanzado,
      blocked: ['Discord.exe'],
    });
    await post(team.key, ['Discord.exe', 'Discord.exe']);
    expect((await chain(other)).map((link) => link.kind)).toEqual(['intento', 'intento', 'estatus']);
    // Its agent stopped the documented way: an agent event, chained too.
    const machine = { hostname: 'lab-cadena', os: 'linux 6.1.0', version: '1.5.0' };
    expect((await callAs(server.app, team.key, '/api/agent/heartbeat', machine)).status).toBe(200);
    expect(
      (await callAs(server.app, team.key, '/api/agent/stopped', { hostname: 'lab-cadena' })).status,
    ).toBe(200);
    const [event] = await sql('select id from agent_events where teams_id = ?', [team.id]);
    expect((await chain(other)).at(-1)).toEqual({ seq: 4, kind: 'agente', ref: Number(event!.id) });
    expect(await verify()).toEqual({ contests_id: other, ok: true, count: 4 });
    await sql("update agent_events set hostname = 'otra' where id = ?", [event!.id]);
    expect((await verify()).first_bad).toEqual({
      seq: 4,
      kind: 'agente',
      ref: Number(event!.id),
      reason: 'contenido',
    });
    await sql("update agent_events set hostname = 'lab-cadena' where id = ?", [event!.id]);
    // The first contest's chain is its own and still whole.
    expect(await verify(`?contests_id=${contestId}`)).toMatchObject({ ok: true, count: 5 });
  });

  it("makes one chain of many teams' attempts, judges' blocks and messages at once (no fork, no gap)", async () => {
    const busy = (await createContest(server.orm, '2026-12-05', { active: true })).id;
    const teams: Array<Awaited<ReturnType<typeof agentTeam>>> = [];
    for (let i = 0; i < 12; i++)
      teams.push(await agentTeam(server, admin, { contestId: busy, blocked: ['chrome.exe'] }));
    const work: Array<Promise<unknown>> = [];
    for (let round = 0; round < 5; round++) {
      for (const team of teams) work.push(post(team.key, ['chrome.exe', 'chrome.exe']));
      work.push(callAs(server.app, judge, `/api/descalificarTeam/${teams[round]!.id}`));
      work.push(callAs(server.app, judge, '/api/sendMessage', { target: 'todos', text: `Aviso ${round}` }));
    }
    const answers = await Promise.all(work);
    for (const answer of answers.filter((a): a is { status: number } => typeof a === 'object' && a !== null))
      expect(answer.status).toBe(200);

    const links = await chain(busy);
    const counts = await sql(
      '(select count(*) as n from attempts where contests_id = ?) union all ' +
        '(select count(*) from team_status_changes s join teams t on t.id = s.teams_id where t.contests_id = ?) union all ' +
        '(select count(*) from messages where contests_id = ?)',
      [busy, busy, busy],
    );
    const [attempts, changes, messages] = counts.map((row) => Number(row.n));
    expect([attempts, changes, messages]).toEqual([120, 5, 5]);
    expect(links.length).toBe(attempts! + changes! + messages!);
    expect(links.map((link) => link.seq)).toEqual(links.map((_, i) => i + 1));
    // Every row covered once.
    expect(new Set(links.map((link) => `${link.kind}:${link.ref}`)).size).toBe(links.length);
    const hashes = await sql(
      'select count(distinct prev_hash) as prevs, count(*) as n from contest_chain where contests_id = ?',
      [busy],
    );
    expect(Number(hashes[0]!.prevs)).toBe(Number(hashes[0]!.n));
    expect(await verify()).toEqual({ contests_id: busy, ok: true, count: links.length });
  });

  it("names a group's attempts by team and event id where one INSERT's ids may not be consecutive", async () => {
    // innodb_autoinc_lock_mode 2 cannot be set on a running server: the fallback's statements are run
    // as the group commit sends them, on the same bare pool.
    const other = (await createContest(server.orm, '2026-12-12', { active: false })).id;
    const team = await createTeam(server.orm, other, LEVELS.basico);
    const now = new Date();
    const attempts = ['a.exe', 'b.exe', 'c.exe'].map((process, position) => ({
      teamId: team.id,
      eventId: `fallback-${position}`,
      position,
      content: {
        contests_id: other,
        teams_id: team.id,
        event_id: `fallback-${position}`,
        process,
        executable: null,
        via: null,
        killed: true,
        occurred_at: now,
        received_at: now,
      },
    }));
    const pool = createSqlPool(server.config.databaseUrl, 1);
    try {
      await sqlBatchTransaction(pool, async (send) => {
        const head = await lockChainHead(batchRunner(send), other);
        await send(
          [
            {
              sql:
                'insert into attempts (teams_id, contests_id, process, killed, occurred_at, received_at, event_id) ' +
                'values (?, ?, ?, 1, ?, ?, ?), (?, ?, ?, 1, ?, ?, ?), (?, ?, ?, 1, ?, ?, ?)',
              params: attempts.flatMap((a) => [team.id, other, a.content.process, now, now, a.eventId]),
            },
            ...attemptChainStatements(other, head, attempts, false).statements,
          ],
          { commit: true },
        );
      });
    } finally {
      await pool.end();
    }
    const ids = (await sql('select id from attempts where teams_id = ? order by id', [team.id])).map((r) =>
      Number(r.id),
    );
    expect((await chain(other)).map((link) => link.ref)).toEqual(ids);
    expect(await verifyChain(server.orm.em.fork(), other)).toEqual({ ok: true, count: 3 });
  });
});
