import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type mysql from 'mysql2/promise';
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
import { storeAttemptsStatement } from '../src/modules/agent/attempts.repository.js';
import { lockTeamContestsStatement } from '../src/modules/teams/index.js';
import { addAttemptCountsStatement } from '../src/modules/teams/index.js';
import { createSqlPool, ormSql, runStatement } from '../src/db/sql.js';

/*
 * The attempts group commit against a second transaction that holds one of its teams (once the
 * flaky «writes concurrent reports…»: a group that waited for a team row read the stored event ids
 * from a snapshot taken before the other group committed, inserted one of them again and failed
 * whole with 409).
 */
describe('attempts group commit (docs/design.md section 6)', () => {
  let server: TestServer;
  let contestId: number;
  let pool: mysql.Pool;

  beforeAll(async () => {
    server = await startTestServer();
    pool = createSqlPool(server.config.databaseUrl, 2);
    contestId = (await createContest(server.orm, '2026-11-26', { active: true })).id;
  });
  afterAll(async () => {
    await pool?.end();
    await server?.close();
  });

  const lockWaits = async () => {
    const rows = await server.orm.em
      .fork()
      .execute<Array<{ n: number }>>(
        `select count(*) as n from information_schema.innodb_trx where trx_state = 'LOCK WAIT'`,
      );
    return Number(rows[0]!.n);
  };

  it('sees what another transaction stored while it waited for a team row, counting it once', async () => {
    const gate = await createTeam(server.orm, contestId, LEVELS.basico, 'Espera 0');
    const first = await createTeam(server.orm, contestId, LEVELS.basico, 'Espera A');
    const second = await createTeam(server.orm, contestId, LEVELS.basico, 'Espera B');
    // One group at a time: while the gate's group waits, the next two requests queue into one group.
    const writer = new AttemptWriter(
      pool,
      () => server.orm.em.fork(),
      () => undefined,
      1,
    );
    const at = new Date().toISOString();
    const attempt = (event_id: string) => ({ event_id, process: 'Discord.exe', occurred_at: at });

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
});
