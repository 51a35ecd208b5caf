import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVELS, type AgentConfig } from '@concurso/shared';
import {
  agentTeam,
  callAs,
  connectAgentSocket,
  connectSocket,
  createContest,
  createTeam,
  generateAgentKey,
  injectAttempts,
  signInStaff,
  startServerPair,
  startTestServer,
  type AgentSocket,
  type BoardSocket,
  type ServerPair,
  type TestServer,
} from '@concurso/testkit';

/**
 * The agents on the push channel (docs/design.md section 6a): the `/agent` namespace takes an
 * agent key and nothing else, sends each agent its team's policy on connection and after every
 * change, and shares nothing with the staff's sockets.
 */
describe('agents on the push channel', () => {
  let server: TestServer;
  let admin: string;
  let judge: string;
  let contestId: number;
  let one: { id: number; key: string };
  let two: { id: number; key: string };
  const open: Array<AgentSocket | BoardSocket> = [];

  /** An agent socket of `key`, closed after the tests. */
  const agentSocket = async (key: unknown) => {
    const connected = await connectAgentSocket(server.url, key);
    open.push(connected.socket);
    return connected;
  };
  /** The next `agent.policy` of `socket` (rejects after 3 s). */
  const nextPolicy = (socket: AgentSocket) =>
    new Promise<AgentConfig>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no agent.policy in 3 s')), 3_000);
      socket.once('agent.policy', (policy) => {
        clearTimeout(timer);
        resolve(policy);
      });
    });
  /** Replaces the active contest's blocked set through the API, as an admin does. */
  const block = async (...names: string[]) => {
    const ids: number[] = [];
    for (const name of names) {
      const known = (await callAs(server.app, admin, '/api/getProcesses')).body.data as Array<{
        id: number;
        name: string;
      }>;
      const found = known.find((row) => row.name === name);
      if (found) {
        ids.push(found.id);
        continue;
      }
      const created = await callAs(server.app, admin, '/api/createProcess', { name });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      ids.push((created.body.data as { id: number }).id);
    }
    const res = await callAs(server.app, admin, '/api/createBlockedProcessForContest', {
      contests_id: contestId,
      processes_id: ids,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer();
    ({ admin, judge } = await signInStaff(server, 'canal'));
    contestId = (await createContest(server.orm)).id;
    one = await agentTeam(server, admin, { contestId, name: 'Equipo Uno', blocked: ['juego.exe'] });
    two = await agentTeam(server, admin, { contestId, name: 'Equipo Dos', levelsId: LEVELS.avanzado });
  });

  afterAll(async () => {
    open.forEach((socket) => socket.close());
    await server?.close();
  });

  it("sends a valid key's agent its team's policy on connection, the same as GET /api/agent/config", async () => {
    const { policy } = await agentSocket(one.key);
    const http = await callAs(server.app, one.key, '/api/agent/config');
    expect(policy).toEqual(http.body.data);
    expect(policy).toMatchObject({
      team: { id: one.id },
      contest: { id: contestId },
      blocked: ['juego.exe'],
    });
    expect(policy.policy_version).toMatch(/^[0-9a-f]{16}$/);
  });

  it('refuses a wrong key, a regenerated one, a staff token and no key with unauthorized', async () => {
    const team = await agentTeam(server, admin, { contestId, name: 'Equipo Revocado' });
    const { socket } = await agentSocket(team.key);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    await generateAgentKey(server.app, admin, team.id);
    // Its sockets close with the key, in every process.
    expect(await closed).toBe('io server disconnect');
    for (const key of [team.key, 'ag_no-existe', judge, admin, undefined, 42]) {
      await expect(agentSocket(key), String(key)).rejects.toThrow('unauthorized');
    }
  });

  it("gives a key of another contest's team an empty policy", async () => {
    const old = await createContest(server.orm, '2026-05-02', { active: false });
    const team = await createTeam(server.orm, old.id, LEVELS.basico, 'Equipo de 2026A');
    const key = await generateAgentKey(server.app, admin, team.id);
    const { policy } = await agentSocket(key);
    expect(policy).toMatchObject({ contest: { id: old.id, active: false }, blocked: [], observe: false });
  });

  it('never lets a staff token in as an agent, nor an agent key in as a screen', async () => {
    await expect(connectSocket(server.url, one.key)).rejects.toThrow('unauthorized');
  });

  it('sends every connected agent its new policy once after a change of the blocked set, and only that', async () => {
    const first = await agentSocket(one.key);
    const second = await agentSocket(two.key);
    const screen = await connectSocket(server.url, judge);
    open.push(screen);
    const screenEvents: string[] = [];
    screen.onAny((event: string) => screenEvents.push(event));

    const both = Promise.all([nextPolicy(first.socket), nextPolicy(second.socket)]);
    await block('juego.exe', 'chat.exe');
    const [a, b] = await both;
    expect(a.blocked).toEqual(['chat.exe', 'juego.exe']);
    expect(b.blocked).toEqual(['chat.exe', 'juego.exe']);
    expect(a.policy_version).toBe(b.policy_version);

    // An attempt moves the board: the screen gets its frame, the agents get nothing but policies.
    expect((await injectAttempts(server.app, one.key, ['juego.exe'])).statusCode).toBe(200);
    await expect.poll(() => screenEvents.includes('board.frame')).toBe(true);
    await server.app.agentChannel.settled();
    for (const { events } of [first, second]) {
      expect(new Set(events.map(([event]) => event))).toEqual(new Set(['agent.policy']));
      expect(events).toHaveLength(2);
    }
    expect(screenEvents).not.toContain('agent.policy');
    expect(screenEvents).toContain('catalog.changed');
  });

  it('records the version each agent says it applied', async () => {
    const { socket, policy } = await agentSocket(two.key);
    socket.emit('agent.policy.applied', policy.policy_version);
    await expect
      .poll(() =>
        server.app.agentChannel
          .sockets()
          .some((s) => s.team.id === two.id && s.applied === policy.policy_version),
      )
      .toBe(true);
  });
});

describe('agents on the push channel across two server processes', () => {
  let pair: ServerPair;
  const open: AgentSocket[] = [];

  beforeAll(async () => {
    pair = await startServerPair();
  });

  afterAll(async () => {
    open.forEach((socket) => socket.close());
    await pair?.close();
  });

  it('sends an agent connected to one process the policy changed through the other, and closes it with its key', async () => {
    const { admin } = await signInStaff(pair.first, 'par');
    const contestId = (await createContest(pair.first.orm)).id;
    const team = await agentTeam(pair.first, admin, { contestId, name: 'Equipo del Otro Proceso' });
    const { socket, policy } = await connectAgentSocket(pair.second.url, team.key);
    open.push(socket);
    expect(policy.blocked).toEqual([]);

    const next = new Promise<AgentConfig>((resolve) => socket.once('agent.policy', resolve));
    const created = await callAs(pair.first.app, admin, '/api/createProcess', { name: 'juego.exe' });
    const res = await callAs(pair.first.app, admin, '/api/createBlockedProcessForContest', {
      contests_id: contestId,
      processes_id: [(created.body.data as { id: number }).id],
    });
    expect(res.status).toBe(200);
    expect((await next).blocked).toEqual(['juego.exe']);

    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    await generateAgentKey(pair.first.app, admin, team.id);
    expect(await closed).toBe('io server disconnect');
  });
});
