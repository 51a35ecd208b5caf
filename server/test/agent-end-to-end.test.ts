import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVELS } from '@concurso/shared';
import { startAgent, type AgentHandle } from '../../agent/src/agent.js';
import {
  blockedBinary,
  cleanUp,
  spawnProcess,
  tempDir,
  uniqueName,
} from '../../agent/test/helpers/processes.js';
import {
  agentTeam,
  attemptCounts,
  connectSocket,
  startContest,
  startTestServer,
  type TestServer,
  nextRow,
} from '@concurso/testkit';

/**
 * The agent path end to end on Linux (docs/design.md section 6): the real agent, the real server and
 * database, and a real process whose executable name is blocked.
 */
describe('agent against the real server', () => {
  let server: TestServer;
  let agent: AgentHandle | undefined;
  let team: { id: number; key: string };
  let adminToken: string;
  const blockedName = uniqueName('discord');

  beforeAll(async () => {
    server = await startTestServer();
    let contestId: number;
    ({ adminToken, contestId } = await startContest(server, 'admin_e2e_agent'));
    team = await agentTeam(server, adminToken, {
      contestId,
      levelsId: LEVELS.avanzado,
      name: 'Los Kernel Panic',
      // Blocked as a Windows name: the agent matches ignoring case and `.exe`.
      blocked: [`${blockedName.toUpperCase()}.exe`],
    });
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
        key: team.key,
        dataDir: await tempDir('agent-data-'),
        pollMs: 200,
        log: () => undefined,
      });
      expect(agent.config.blocked).toEqual([`${blockedName.toUpperCase()}.exe`]);

      const binary = await blockedBinary(blockedName);
      const counted = nextRow(screen, (row) => row.id === team.id && row.number_attempts > 0, 60_000).then(
        (row) => row.number_attempts,
      );
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
