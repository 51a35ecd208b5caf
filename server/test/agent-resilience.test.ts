import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type AgentHandle } from '../../agent/src/agent.js';
import {
  blockedBinary,
  cleanUp,
  ownChildren,
  running,
  spawnProcess,
  tempDir,
  uniqueName,
  within,
} from '../../agent/test/helpers/processes.js';
import {
  agentTeam,
  attemptCounts,
  dropDatabase,
  startContest,
  startTestServer,
  type TestServer,
} from '@concurso/testkit';

/**
 * The agent in a lab (docs/design.md section 6), with real processes, the real server and database:
 * nothing lost while the server is down, nothing counted twice across agent restarts, a blocked set
 * that changes under a running agent, a process that resists the polite signal, and the dry run.
 * The agent only looks at this test's own children, so other tests' processes are never touched.
 */
describe('the agent in a lab', () => {
  let server: TestServer;
  let databaseUrl: string;
  let port: number;
  let adminToken: string;
  let contestId: number;
  const agents: AgentHandle[] = [];

  const newTeam = (name: string, blocked: string[]) =>
    agentTeam(server, adminToken, { contestId, name, blocked });
  const agent = async (key: string, options: Partial<Parameters<typeof startAgent>[0]> = {}) => {
    const handle = await startAgent({
      server: `http://127.0.0.1:${port}`,
      key,
      pollMs: 200,
      graceMs: 400,
      lister: ownChildren,
      log: () => undefined,
      ...options,
    });
    agents.push(handle);
    return handle;
  };

  beforeAll(async () => {
    server = await startTestServer({}, { keepDatabase: true });
    databaseUrl = server.config.databaseUrl;
    port = new URL(server.url).port as unknown as number;
    ({ adminToken, contestId } = await startContest(server, 'admin_lab'));
  });
  // Every team shares the contest's blocked set: an agent left running would end the next test's processes.
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((a) => a.stop()));
  });
  afterAll(async () => {
    await cleanUp();
    // The last server started drops the database.
    await server?.close();
    await dropDatabase(databaseUrl);
  });

  it('kills a process that survives the polite signal within 2 s and counts it once', async () => {
    const name = uniqueName('anydesk');
    const team = await newTeam('Los Tercos', [`${name}.exe`]);
    const bash = await blockedBinary(name, '/bin/bash');
    const child = await spawnProcess(bash, ['-c', 'trap "" TERM; echo ready; read -r _'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    // The agent starts once the trap is set: before it, a busy machine could let the agent's polite
    // signal land between exec and `trap`, and the test would see SIGTERM, not the stubborn case.
    await within(
      5_000,
      new Promise<void>((resolve) => child.child.stdout!.once('data', () => resolve())),
      'the stubborn process is ready',
    );
    await agent(team.key);
    const ended = await within(2_000, child.exited, 'the stubborn blocked process ends');
    expect(ended.signal).toBe('SIGKILL');
    await within(
      3_000,
      waitFor(async () => (await attemptCounts(server.orm, team.id)).count === 1),
      'counted',
    );
    await new Promise((r) => setTimeout(r, 600)); // a few more sweeps
    expect(await attemptCounts(server.orm, team.id)).toEqual({ rows: 1, count: 1 });
  });

  it('loses nothing while the server is down and counts nothing twice across an agent restart', async () => {
    const name = uniqueName('discord');
    const team = await newTeam('Los Desconectados', [name]);
    const dataDir = await tempDir('agent-outbox-');
    const first = await agent(team.key, { dataDir });

    await server.close(); // the server goes away (the database stays)
    const binary = await blockedBinary(name);
    for (let i = 0; i < 3; i++) {
      const child = await spawnProcess(binary, ['300']);
      await within(2_000, child.exited, `blocked process ${i + 1} ends while the server is down`);
    }
    await within(
      2_000,
      waitFor(() => first.stats.pending === 3),
      'three attempts wait in the queue',
    );
    // The agent restarts while the server is still down: its queue is on disk.
    await first.stop();
    agents.splice(agents.indexOf(first), 1);

    // Same secret, as a real restart reads it from DATA_DIR: sessions survive.
    server = await startTestServer(
      { jwtSecret: server.config.jwtSecret },
      { databaseUrl, port, keepDatabase: true },
    );
    const second = await agent(team.key, { dataDir });
    await within(
      10_000,
      waitFor(async () => second.stats.pending === 0),
      'the queue empties',
    );
    await second.flush();
    expect(await attemptCounts(server.orm, team.id)).toEqual({ rows: 3, count: 3 });
  });

  it('kills a process added to the blocked set without restarting the agent', async () => {
    const name = uniqueName('telegram');
    const team = await newTeam('Los Nuevos', []);
    const running_ = await agent(team.key, { configRefreshMs: 300 });
    expect(running_.config.blocked).not.toContain(name);
    const proc = await spawnProcess(await blockedBinary(name), ['300']);
    await new Promise((r) => setTimeout(r, 500));
    expect(running(proc)).toBe(true); // not blocked yet

    const created = await server.app.inject({
      method: 'POST',
      url: '/api/createProcess',
      payload: { name: `${name.toUpperCase()}.EXE` },
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const blockedIds = await server.orm.em
      .fork()
      .execute<Array<{ processes_id: number }>>(
        'select processes_id from contest_processes where contests_id = ?',
        [contestId],
      );
    const assign = await server.app.inject({
      method: 'POST',
      url: '/api/createBlockedProcessForContest',
      payload: {
        contests_id: contestId,
        processes_id: [...blockedIds.map((r) => Number(r.processes_id)), created.json().data.id],
      },
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(assign.statusCode).toBe(200);
    await within(3_000, proc.exited, 'the newly blocked process ends');
    await within(
      3_000,
      waitFor(async () => (await attemptCounts(server.orm, team.id)).count === 1),
      'counted',
    );
  });

  it('--dry-run leaves the process alive and reports the attempt, marked as not killed', async () => {
    const name = uniqueName('zoom');
    const team = await newTeam('Los de Prueba', [name]);
    const lines: string[] = [];
    await agent(team.key, { dryRun: true, log: (line) => lines.push(line) });
    const proc = await spawnProcess(await blockedBinary(name), ['300']);
    await within(
      3_000,
      waitFor(async () => (await attemptCounts(server.orm, team.id)).count === 1),
      'reported',
    );
    await new Promise((r) => setTimeout(r, 600)); // more sweeps: still one attempt
    expect(running(proc)).toBe(true);
    expect(lines.find((l) => l.includes(name))).toMatch(new RegExp(`${name}.*${proc.pid}`));
    expect(await attemptCounts(server.orm, team.id)).toEqual({ rows: 1, count: 1 });
    const rows = await server.orm.em
      .fork()
      .execute<Array<{ killed: number }>>('select killed from attempts where teams_id = ?', [team.id]);
    expect(Number(rows[0]!.killed)).toBe(0);
  });
});

/** Polls `check` every 50 ms until it is true. */
async function waitFor(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
}
