import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labMachinesSchema, labNetworkState } from '@concurso/shared';
import {
  agentTeam,
  callAs,
  createContest,
  signInStaff,
  startTestServer,
  type TestServer,
} from '@concurso/testkit';

/**
 * How each machine filters the allowed host names (agent/README.md, «Sitios permitidos»): its agent
 * says it in the heartbeat (`network_filter`: `name` on Linux, `address` on Windows), the server keeps
 * it per machine and /laboratorio's data carries it with whether the policy lists a name, so a
 * Windows machine reads «aplicada (solo por dirección: Windows no filtra por nombre)».
 */
describe('how a machine filters the allowed host names', () => {
  let server: TestServer;
  let admin: string;
  let judge: string;
  let contestId: number;
  let team: { id: number; key: string };

  const beat = (body: Record<string, unknown>) => callAs(server.app, team.key, '/api/agent/heartbeat', body);
  const setSites = (sites: string[]) =>
    callAs(server.app, admin, '/api/updateAllowedSites', { contests_id: contestId, allowed_sites: sites });
  const machine = async (hostname: string) => {
    const res = await callAs(server.app, judge, '/api/labMachines');
    expect(res.status).toBe(200);
    return labMachinesSchema.parse(res.body.data).machines.find((m) => m.hostname === hostname)!;
  };

  beforeAll(async () => {
    server = await startTestServer();
    ({ admin, judge } = await signInStaff(server, 'filter'));
    contestId = (await createContest(server.orm)).id;
    team = await agentTeam(server, admin, { contestId, name: 'Los Filtrados' });
    expect((await setSites(['omegaup.com', '10.0.0.0/8'])).status).toBe(200);
  });

  afterAll(async () => server?.close());

  it('is kept per machine and shown: by name on Linux, only by address on Windows', async () => {
    const linux = await beat({
      hostname: 'lab-linux',
      os: 'linux 6.1.0',
      network_version: 1,
      network_filter: 'name',
    });
    expect(linux.status, JSON.stringify(linux.body)).toBe(200);
    const windows = await beat({
      hostname: 'lab-win',
      os: 'win32 10.0.19045',
      network_version: 1,
      network_filter: 'address',
    });
    expect(windows.status, JSON.stringify(windows.body)).toBe(200);

    const onLinux = await machine('lab-linux');
    expect([onLinux.network_filter, onLinux.network_hosts]).toEqual(['name', true]);
    expect(labNetworkState(onLinux)).toEqual({ text: 'red: v1 aplicada (filtro por nombre)', tone: 'ok' });
    const onWindows = await machine('lab-win');
    expect(onWindows.network_filter).toBe('address');
    expect(labNetworkState(onWindows)).toEqual({
      text: 'red: v1 aplicada (solo por dirección: Windows no filtra por nombre)',
      tone: 'ok',
    });
  });

  it('follows the heartbeat: a later one that does not say it (an older agent) clears it', async () => {
    // Beats of the first machine, known now: the update path, not the insert.
    expect((await beat({ hostname: 'lab-linux', os: 'linux 6.1.0', network_version: 1 })).status).toBe(200);
    const older = await machine('lab-linux');
    expect(older.network_filter).toBeNull();
    expect(labNetworkState(older).text).toBe('red: v1 aplicada');
    expect(
      (await beat({ hostname: 'lab-linux', os: 'linux 6.1.0', network_version: 1, network_filter: 'name' }))
        .status,
    ).toBe(200);
    expect((await machine('lab-linux')).network_filter).toBe('name');
  });

  it('is not said once the policy lists no host name', async () => {
    expect((await setSites(['10.0.0.0/8'])).status).toBe(200);
    expect(
      (
        await beat({
          hostname: 'lab-win',
          os: 'win32 10.0.19045',
          network_version: 2,
          network_filter: 'address',
        })
      ).status,
    ).toBe(200);
    const onWindows = await machine('lab-win');
    expect(onWindows.network_hosts).toBe(false);
    expect(labNetworkState(onWindows)).toEqual({ text: 'red: v2 aplicada', tone: 'ok' });
  });

  it('refuses any other value, keeping nothing of that heartbeat', async () => {
    const res = await beat({ hostname: 'lab-otro', network_version: 2, network_filter: 'sni' });
    expect(res.status).toBe(422);
    const board = labMachinesSchema.parse((await callAs(server.app, judge, '/api/labMachines')).body.data);
    expect(board.machines.map((m) => m.hostname)).not.toContain('lab-otro');
  });
});
