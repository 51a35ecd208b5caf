import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_MAX_MACHINES_PER_TEAM, LEVELS, labMachinesSchema } from '@concurso/shared';
import {
  agentTeam,
  blockProcesses,
  callAs,
  createContest,
  signInStaff,
  startTestServer,
  type TestServer,
} from '@concurso/testkit';

/**
 * The lab board's data (`GET /api/labMachines`, docs/design.md section 6a): the machines the agents'
 * heartbeats describe, each with its policy against its team's current one and its clock's offset; which
 * teams are ready and which have no agent running; bounded per team whatever a key sends. A policy change
 * does not make a machine late before its next heartbeat could say it applied it (`LAB_POLICY_GRACE_MS`).
 */
describe('the lab board', () => {
  const OFFLINE_AFTER_MS = 1_500;
  let server: TestServer;
  let judge: string;
  let admin: string;
  let contestId: number;
  let ready: { id: number; key: string };
  let stale: { id: number; key: string };
  let absent: { id: number; key: string };

  const beat = async (key: string, body: object) => {
    const res = await callAs(server.app, key, '/api/agent/heartbeat', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const board = async (token = judge) => {
    const res = await callAs(server.app, token, '/api/labMachines');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return labMachinesSchema.parse(res.body.data);
  };

  beforeAll(async () => {
    server = await startTestServer({ agentOfflineAfterMs: OFFLINE_AFTER_MS });
    ({ admin, judge } = await signInStaff(server, 'lab'));
    contestId = (await createContest(server.orm)).id;
    ready = await agentTeam(server, admin, { contestId, name: 'A Listos', blocked: ['juego.exe'] });
    stale = await agentTeam(server, admin, { contestId, name: 'B Atrasados', levelsId: LEVELS.avanzado });
    absent = await agentTeam(server, admin, { contestId, name: 'C Ausentes' });
  });

  afterAll(async () => server?.close());

  it('lists each machine with its policy state and clock offset, and says which teams are ready', async () => {
    const current = (await callAs(server.app, ready.key, '/api/agent/config')).body.data
      .policy_version as string;
    await beat(ready.key, {
      hostname: 'lab-a1',
      os: 'linux 6.1.0',
      version: '1.4.0',
      clock: new Date(Date.now() + 2_000).toISOString(),
      policy_version: current,
    });
    await beat(stale.key, {
      hostname: 'lab-b1',
      os: 'win32 10.0.19045',
      version: '1.3.0',
      policy_version: 'viejo',
    });

    const data = await board();
    expect(data.contest?.id).toBe(contestId);
    expect({ ready: data.ready, teams: data.teams }).toEqual({ ready: 1, teams: 3 });
    expect(data.missing).toEqual([{ id: absent.id, name: 'C Ausentes', level: 'Básico' }]);
    expect(data.machines.map((m) => [m.team.name, m.hostname, m.policy_state])).toEqual([
      ['A Listos', 'lab-a1', 'al_dia'],
      ['B Atrasados', 'lab-b1', 'atrasada'],
    ]);
    const [a, b] = data.machines;
    expect(a).toMatchObject({ os: 'linux 6.1.0', version: '1.4.0', online: true, policy_current: current });
    expect(a!.clock_offset_ms).toBeGreaterThan(1_500);
    expect(a!.clock_offset_ms).toBeLessThan(2_500);
    expect(b).toMatchObject({
      level: { id: LEVELS.avanzado },
      clock_offset_ms: null,
      policy_version: 'viejo',
    });
  });

  it('keeps a machine ready and «Al día» right after a policy change, until its heartbeat can say so', async () => {
    const policyOf = async () =>
      (await callAs(server.app, ready.key, '/api/agent/config')).body.data.policy_version as string;
    const old = await policyOf();
    await beat(ready.key, { hostname: 'lab-a1', os: 'linux 6.1.0', version: '1.4.0', policy_version: old });
    expect((await board()).ready).toBe(1);
    // The blocked set grows: every team's policy changes; lab-a1's agent has not beaten since.
    await blockProcesses(server.orm, contestId, ['otro-juego.exe']);
    const current = await policyOf();
    expect(current).not.toBe(old);
    const data = await board();
    expect(data.ready).toBe(1);
    expect(data.machines.map((m) => [m.hostname, m.policy_state, m.policy_current])).toEqual([
      ['lab-a1', 'al_dia', current],
      // Already behind before the change: no grace.
      ['lab-b1', 'atrasada', data.machines[1]!.policy_current],
    ]);
  });

  it('marks a machine not heard within the window «sin señal», and its team no longer ready', async () => {
    await new Promise((resolve) => setTimeout(resolve, OFFLINE_AFTER_MS + 300));
    const data = await board(admin);
    expect(data.ready).toBe(0);
    expect(data.machines.every((m) => !m.online && m.policy_state === 'sin_senal')).toBe(true);
    expect(data.missing.map((t) => t.name)).toEqual(['A Listos', 'B Atrasados', 'C Ausentes']);
    expect(data.machines.find((m) => m.team.id === ready.id)?.alert).toBe('sin_senal');
  });

  it(`keeps at most ${LAB_MAX_MACHINES_PER_TEAM} machines per team, whatever host names a key sends`, async () => {
    for (let i = 0; i < LAB_MAX_MACHINES_PER_TEAM + 5; i++)
      await beat(stale.key, { hostname: `inventada-${i}` });
    const machines = (await board()).machines.filter((m) => m.team.id === stale.id);
    // Heard within the window: the cap. The silent lab-b1 no longer counts toward it, and stays listed
    // with its «sin señal» until it beats again or an admin removes it.
    expect(machines.filter((m) => m.online)).toHaveLength(LAB_MAX_MACHINES_PER_TEAM);
    expect(machines.filter((m) => !m.online).map((m) => [m.hostname, m.alert])).toEqual([
      ['lab-b1', 'sin_senal'],
    ]);
  });

  it('is for staff: an agent key is refused', async () => {
    expect((await callAs(server.app, ready.key, '/api/labMachines')).status).toBe(401);
  });
});
