import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVELS } from '@concurso/shared';
import {
  attemptCounts,
  createContest,
  createTeam,
  startTestServer,
  eventually,
  type TestServer,
} from '@concurso/testkit';
import { AttemptWriter } from '../src/modules/agent/attempt-writer.js';
import { AttemptThread } from '../src/modules/agent/attempt-thread.js';
import { storeAttemptsStatement } from '../src/modules/agent/attempts.repository.js';
import { lockTeamContestsStatement } from '../src/modules/teams/index.js';
import { addAttemptCountsStatement } from '../src/modules/teams/index.js';
import { ormSql, runStatement } from '../src/db/sql.js';
import { isDatabaseUnavailable } from '../src/db/timeouts.js';

/*
 * The attempts group commit, on its worker thread (attempt-thread.ts) as in the app. Against a second transaction that holds one of its teams (once the
 * flaky «writes concurrent reports…»: a group that waited for a team row read the stored event ids
 * from a snapshot taken before the other group committed, inserted one of them again and failed
 * whole with 409).
 */
describe('attempts group commit (docs/design.md section 6)', () => {
  let server: TestServer;
  let contestId: number;
  let thread: AttemptThread;

  beforeAll(async () => {
    server = await startTestServer();
    thread = new AttemptThread(server.config.databaseUrl, 2);
    // Started before the tests, as the app starts it at an agent's first call: the lock waits below are counted
    // within a few seconds of a group's hand-over, not of the thread's first load.
    await thread.open();
    contestId = (await createContest(server.orm, '2026-11-26', { active: true })).id;
  });
  afterAll(async () => {
    await thread?.close();
    await server?.close();
  });

  const at = new Date().toISOString();
  const attempt = (event_id: string) => ({ event_id, process: 'Discord.exe', occurred_at: at });

  const lockWaits = async () => {
    const rows = await server.orm.em.fork().execute<Array<{ n: number }>>(
      // This test's database only: the MariaDB is shared with other test files and benches.
      `select count(*) as n from information_schema.innodb_trx t
         join information_schema.processlist p on p.id = t.trx_mysql_thread_id
        where t.trx_state = 'LOCK WAIT' and p.db = database()`,
    );
    return Number(rows[0]!.n);
  };

  it('sees what another transaction stored while it waited for a team row, counting it once', async () => {
    const gate = await createTeam(server.orm, contestId, LEVELS.basico, 'Espera 0');
    const first = await createTeam(server.orm, contestId, LEVELS.basico, 'Espera A');
    const second = await createTeam(server.orm, contestId, LEVELS.basico, 'Espera B');
    // One group at a time: while the gate's group waits, the next two requests queue into one group.
    const writer = new AttemptWriter(
      (group) => thread.commit(group),
      () => server.orm.em.fork(),
      () => undefined,
      1,
    );

    const holdGate = server.orm.em.fork();
    const other = server.orm.em.fork();
    await holdGate.begin();
    await other.begin();
    try {
      await runStatement(ormSql(holdGate), lockTeamContestsStatement([gate.id]));
      await runStatement(ormSql(other), lockTeamContestsStatement([second.id]));
      const gated = writer.record(gate.id, [attempt('ev-gate')]);
      expect(await eventually(async () => (await lockWaits()) === 1, 5000)).toBe(true);
      const answers = Promise.all([
        writer.record(first.id, [attempt('ev-own')]),
        writer.record(second.id, [attempt('ev-retried')]),
      ]);
      await holdGate.rollback();
      await gated;
      // The group [first, second] locks the first team's row, then waits for the second's.
      expect(await eventually(async () => (await lockWaits()) === 1, 5000)).toBe(true);
      // Meanwhile the other transaction stores the same event (the agent's earlier send of it) and commits.
      const now = new Date();
      const stored = {
        teamId: second.id,
        contestId,
        process: 'Discord.exe',
        executable: null,
        killed: true,
        occurredAt: now,
        eventId: 'EV-RETRIED',
      };
      await runStatement(ormSql(other), storeAttemptsStatement([stored], now));
      await runStatement(ormSql(other), addAttemptCountsStatement(new Map([[second.id, 1]]), now));
      await other.commit();

      const [mine, theirs] = await answers;
      expect(mine).toMatchObject({ counted: 1, number_attempts: 1 });
      expect(theirs).toMatchObject({ accepted: ['ev-retried'], counted: 0, number_attempts: 1 });
      expect(await attemptCounts(server.orm, second.id)).toEqual({ rows: 1, count: 1 });
    } finally {
      for (const em of [holdGate, other]) if (em.isInTransaction()) await em.rollback();
    }
  });

  it('commits a group while the main thread runs nothing: its statements run on the worker thread', async () => {
    const team = await createTeam(server.orm, contestId, LEVELS.basico, 'Hilo propio');
    const writer = new AttemptWriter(
      (group) => thread.commit(group),
      () => server.orm.em.fork(),
      () => undefined,
      1,
    );
    // The thread is running (its first group started it), and the writer is idle: the next group
    // goes out as soon as it is recorded.
    expect(await writer.record(team.id, [attempt('ev-first')])).toMatchObject({ counted: 1 });
    await writer.drained();
    // `record` hands the group to the thread at once; from here until `spawnSync` returns, this thread
    // is inside one synchronous call and runs no callback, no timer and no I/O of its own. The child
    // reads the database on its own connection until the attempt is there (or gives up after 20 s).
    const answer = writer.record(team.id, [attempt('ev-while-blocked')]);
    const child = spawnSync(process.execPath, ['-e', SEE_ATTEMPT], {
      env: {
        ...process.env,
        MYSQL2: createRequire(import.meta.url).resolve('mysql2/promise'),
        SEE_URL: server.config.databaseUrl,
        SEE_TEAM: String(team.id),
        SEE_EVENT: 'ev-while-blocked',
      },
      encoding: 'utf8',
    });
    // The child saw the row committed: the group's statements ran without this thread's event loop.
    expect(child.stdout.trim(), child.stderr).toBe('seen');
    expect(await answer).toEqual({ accepted: ['ev-while-blocked'], counted: 1, number_attempts: 2 });
    expect(await attemptCounts(server.orm, team.id)).toEqual({ rows: 2, count: 2 });
  });
  it("keeps an error's kind across the thread: a database not there is unavailable, a bad query is not", async () => {
    const group = [{ teamId: 1, attempts: [attempt('ev-error')] }];
    // Nothing listens on port 1 of loopback.
    const refused = new AttemptThread('mysql://root@127.0.0.1:1/concurso', 1);
    const missing = new URL(server.config.databaseUrl);
    missing.pathname = '/concurso_no_such_database';
    const unknown = new AttemptThread(missing.href, 1);
    try {
      await Promise.all([refused.open(), unknown.open()]);
      const down = await refused.commit(group).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(down).toMatchObject({ code: 'ECONNREFUSED' });
      expect(isDatabaseUnavailable(down)).toBe(true);
      const bad = await unknown.commit(group).then(
        () => undefined,
        (err: unknown) => err,
      );
      // ER_BAD_DB_ERROR: the server answered; no 503, no retry.
      expect(bad).toMatchObject({ errno: 1049, code: 'ER_BAD_DB_ERROR' });
      expect(isDatabaseUnavailable(bad)).toBe(false);
    } finally {
      await Promise.all([refused.close(), unknown.close()]);
    }
  });
});

/** A child's script: polls until the attempt (SEE_TEAM, SEE_EVENT) is in the database; prints 'seen' or 'absent'. */
const SEE_ATTEMPT = `
const mysql = require(process.env.MYSQL2);
(async () => {
  const conn = await mysql.createConnection(process.env.SEE_URL);
  let seen = false;
  for (let i = 0; i < 400 && !seen; i++) {
    const [rows] = await conn.query('select count(*) as n from attempts where teams_id = ? and event_id = ?', [
      Number(process.env.SEE_TEAM),
      process.env.SEE_EVENT,
    ]);
    seen = Number(rows[0].n) === 1;
    if (!seen) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await conn.end();
  console.log(seen ? 'seen' : 'absent');
})();
`;
