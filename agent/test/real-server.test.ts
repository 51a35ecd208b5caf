import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptLogRow } from '@concurso/shared';
import { agentTeam, startContest, startTestServer, type TestServer } from '@concurso/testkit';
import { startAgent, type AgentHandle } from '../src/agent.js';
import {
  blockedBinary,
  cleanUp,
  ownChildren,
  renamedCopy,
  sha256Of,
  spawnProcess,
  tempDir,
  uniqueName,
  within,
} from './helpers/processes.js';

/**
 * Issue 14 against the real server and database (the fake server plays only the contract): the
 * server learns the fingerprint from the first kill's attempt and sends it in the config, and the
 * agent then ends a renamed copy of the same file, reported under the blocked name with the name it
 * ran as. The agent watches only this test's children (its copies carry random bytes: their
 * fingerprint is theirs alone).
 */
describe('renamed copy against the real server (issue 14)', () => {
  let server: TestServer;
  let agent: AgentHandle | undefined;

  beforeAll(async () => {
    server = await startTestServer();
  }, 120_000);

  // Dropping the database may take a while on a busy machine.
  afterAll(async () => {
    await agent?.stop();
    await cleanUp();
    await server?.close();
  }, 60_000);

  it('learns the fingerprint from a kill, then ends a renamed copy and logs it with executable', async () => {
    const { adminToken, contestId } = await startContest(server, 'admin_agent_renamed');
    const blocked = uniqueName('forbidden');
    const team = await agentTeam(server, adminToken, {
      contestId,
      name: 'Los Renombrados',
      blocked: [blocked],
    });
    agent = await startAgent({
      server: server.url,
      key: team.key,
      dataDir: await tempDir('agent-real-'),
      lister: ownChildren,
      pollMs: 200,
      configRefreshMs: 300,
      log: () => undefined,
    });
    expect(agent.config.fingerprints).toEqual([]);

    const original = await blockedBinary(blocked);
    const sha256 = await sha256Of(original);
    const first = await spawnProcess(original, ['300']);
    await within(5_000, first.exited, 'el agente termina el programa bloqueado por su nombre');

    // The attempt carried the fingerprint; the server learned it and the next config brings it.
    const learned = Date.now() + 15_000;
    while (agent.config.fingerprints.length === 0 && Date.now() < learned) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(agent.config.fingerprints).toEqual([{ process: blocked, sha256 }]);

    const disguise = uniqueName('other');
    const renamed = await spawnProcess(await renamedCopy(original, disguise), ['300']);
    await within(5_000, renamed.exited, 'el agente termina la copia renombrada');
    await agent.flush();

    const response = await fetch(`${server.url}/api/teamAttemptsLog/${team.id}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const rows = ((await response.json()) as { data: AttemptLogRow[] }).data;
    expect(rows).toHaveLength(2);
    const byExecutable = new Map(rows.map((row) => [row.executable, row]));
    expect(byExecutable.get(null)).toMatchObject({ process: blocked, killed: true });
    expect(byExecutable.get(disguise)).toMatchObject({ process: blocked, killed: true });
  });
});
