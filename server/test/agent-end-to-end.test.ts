import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVELS, USER_TYPES } from '@concurso/shared';
import { startAgent, type AgentHandle } from '../../agent/src/agent.js';
import {
  blockedBinary,
  cleanUp,
  spawnProcess,
  tempDir,
  uniqueName,
} from '../../agent/test/helpers/processes.js';
import {
  attemptCounts,
  connectSocket,
  generateAgentKey,
  createContest,
  createTeam,
  createUser,
  login,
  startTestServer,
  type TestServer,
} from './helpers.js';

/**
 * The agent path end to end on Linux (DESIGN.md section 6): the real agent, the real server and
 * database, and a real process whose executable name is blocked.
 */
describe('agent against the real server', () => {
  let server: TestServer;
  let agent: AgentHandle | undefined;
  let team: { id: number };
  let key: string;
  let adminToken: string;
  const blockedName = uniqueName('discord');

  beforeAll(async () => {
    server = await startTestServer();
    const admin = await createUser(server.orm, USER_TYPES.admin, 'admin_e2e_agent', 'clave-admin');
    adminToken = await login(server.app, admin.username, 'clave-admin');
    const contest = await createContest(server.orm);
    team = await createTeam(server.orm, contest.id, LEVELS.avanzado, 'Los Kernel Panic');
    const em = server.orm.em.fork();
    // Blocked as a Windows name: the agent matches ignoring case and `.exe`.
    await em.execute('insert into processes (name) values (?)', [`${blockedName.toUpperCase()}.exe`]);
    await em.execute(
      'insert into contest_processes (contests_id, processes_id) select ?, id from processes',
      [contest.id],
    );
    key = await generateAgentKey(server.app, adminToken, team.id);
  });

  afterAll(async () => {
    await agent?.stop();
    await cleanUp();
    await server?.close();
  });

  const counts = () => attemptCounts(server.orm, team.id);

  it('kills a blocked process within 2 seconds and counts it once, live on the board', async () => {
    const screen = await connectSocket(server.url, adminToken, [LEVELS.avanzado]);
    try {
      agent = await startAgent({
        server: server.url,
        key,
        dataDir: await tempDir('agent-data-'),
        pollMs: 200,
        log: () => undefined,
      });
      expect(agent.config.blocked).toEqual([`${blockedName.toUpperCase()}.exe`]);

      const binary = await blockedBinary(blockedName);
      const counted = new Promise<number>((resolve) => {
        screen.on('team.updated', (row) => {
          if (row.id === team.id && row.number_attempts > 0) resolve(row.number_attempts);
        });
      });
      const spawned = await spawnProcess(binary, ['300']);
      const started = Date.now();
      const exit = await Promise.race([
        spawned.exited,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 2_000)),
      ]);
      expect(exit, 'the blocked process should be dead within 2 s').not.toBeNull();
      expect(exit!.signal).toMatch(/SIGTERM|SIGKILL/);
      expect(Date.now() - started).toBeLessThan(2_000);

      expect(await counted).toBe(1);
      // Later sweeps see no new instance: still exactly one attempt, and the count equals the rows.
      await agent.sweep();
      await agent.flush();
      expect(await counts()).toEqual({ rows: 1, count: 1 });
      const rows = await server.orm.em
        .fork()
        .execute<Array<{ process: string }>>('select process from attempts where teams_id = ?', [team.id]);
      expect(rows[0]!.process).toBe(`${blockedName.toUpperCase()}.exe`);
    } finally {
      screen.close();
    }
  });
});
