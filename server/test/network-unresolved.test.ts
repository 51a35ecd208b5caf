import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NETWORK_UNRESOLVED_MAX, labMachinesSchema, labNetworkState } from '@concurso/shared';
import {
  agentTeam,
  callAs,
  createContest,
  signInStaff,
  startTestServer,
  type TestServer,
} from '@concurso/testkit';

/**
 * The allowed names a machine could not resolve (docs/design.md section 6a): its agent says them in the
 * heartbeat, the server keeps them bounded by the shared schema (a lab machine is in a contestant's
 * hands) and /laboratorio's data carries them, so the machine reads «aplicada en parte» in amber
 * until they resolve.
 */
describe('allowed names a machine could not resolve', () => {
  let server: TestServer;
  let admin: string;
  let judge: string;
  let team: { id: number; key: string };

  const beat = (body: Record<string, unknown>) => callAs(server.app, team.key, '/api/agent/heartbeat', body);
  const machine = async (hostname: string) => {
    const res = await callAs(server.app, judge, '/api/labMachines');
    expect(res.status).toBe(200);
    return labMachinesSchema.parse(res.body.data).machines.find((m) => m.hostname === hostname);
  };

  beforeAll(async () => {
    server = await startTestServer();
    ({ admin, judge } = await signInStaff(server, 'unresolved'));
    const contestId = (await createContest(server.orm)).id;
    team = await agentTeam(server, admin, { contestId, name: 'Los Sin DNS' });
    const set = await callAs(server.app, admin, '/api/updateAllowedSites', {
      contests_id: contestId,
      allowed_sites: ['omegaup.com', 'docs.python.org', '10.0.0.0/8'],
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
  });

  afterAll(async () => server?.close());

  it('keeps the names the heartbeat says and shows the policy in part, then in force once they resolve', async () => {
    const partial = await beat({
      hostname: 'lab-1',
      network_version: 1,
      network_unresolved: ['omegaup.com', 'docs.python.org'],
    });
    expect(partial.status, JSON.stringify(partial.body)).toBe(200);
    const before = (await machine('lab-1'))!;
    expect(before.network_unresolved).toEqual(['omegaup.com', 'docs.python.org']);
    expect(labNetworkState(before)).toEqual({
      text: 'red: v1 aplicada en parte: no se resolvieron omegaup.com, docs.python.org',
      tone: 'warning',
    });
    // They resolve at the agent's next round: its heartbeat no longer names them.
    expect((await beat({ hostname: 'lab-1', network_version: 1 })).status).toBe(200);
    const after = (await machine('lab-1'))!;
    expect(after.network_unresolved).toEqual([]);
    expect(labNetworkState(after)).toEqual({ text: 'red: v1 aplicada', tone: 'ok' });
  });

  it('stores at most NETWORK_UNRESOLVED_MAX host names of at most 253 characters, and refuses the rest', async () => {
    // The largest report the schema lets through fits the column whole.
    const longest = Array.from({ length: NETWORK_UNRESOLVED_MAX }, (_, i) => `${i}`.padEnd(253, 'x'));
    expect((await beat({ hostname: 'lab-2', network_version: 1, network_unresolved: longest })).status).toBe(
      200,
    );
    expect((await machine('lab-2'))!.network_unresolved).toEqual(longest);

    for (const names of [[...longest, 'uno-mas.com'], ['x'.repeat(254)], ['a.com b.com'], ['<img src=x>']]) {
      const res = await beat({ hostname: 'lab-3', network_version: 1, network_unresolved: names });
      expect(res.status, JSON.stringify(names).slice(0, 80)).toBe(422);
    }
    // Nothing of a refused heartbeat was kept.
    expect(await machine('lab-3')).toBeUndefined();
    expect((await machine('lab-2'))!.network_unresolved).toEqual(longest);
  });
});
