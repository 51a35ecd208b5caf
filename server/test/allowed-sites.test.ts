import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NETWORK_MESSAGES,
  agentConfigSchema,
  contestLogSchema,
  contestRowSchema,
  labMachinesSchema,
  labNetworkState,
  networkLogText,
} from '@concurso/shared';
import {
  agentTeam,
  callAs,
  createContest,
  signInStaff,
  startTestServer,
  type TestServer,
} from '@concurso/testkit';

/**
 * The server's side of «Sitios permitidos» (docs/design.md section 6a): an admin sets a contest's
 * allowed sites (checked by the shared schema, stored in one form), each change is a new version kept
 * in the contest's log; the agents of the active contest get the list with the version, those of
 * another contest none; the version a machine has in force (or why it failed) is on the lab board.
 */
describe('a contest’s allowed sites', () => {
  let server: TestServer;
  let admin: string;
  let judge: string;
  let contestId: number;
  let otherContestId: number;
  let team: { id: number; key: string };
  let otherTeam: { id: number; key: string };

  const setSites = (sites: unknown[], token = admin, id = contestId) =>
    callAs(server.app, token, '/api/updateAllowedSites', { contests_id: id, allowed_sites: sites });
  const configOf = async (key: string) =>
    agentConfigSchema.parse((await callAs(server.app, key, '/api/agent/config')).body.data);

  beforeAll(async () => {
    server = await startTestServer();
    ({ admin, judge } = await signInStaff(server, 'sites'));
    contestId = (await createContest(server.orm)).id;
    otherContestId = (await createContest(server.orm, '2026-05-01', { active: false })).id;
    team = await agentTeam(server, admin, { contestId, name: 'Los Permitidos' });
    otherTeam = await agentTeam(server, admin, { contestId: otherContestId, name: 'Los De Antes' });
  });

  afterAll(async () => server?.close());

  it('stores the sites in one form with a new version per change, and refuses bad ones in Spanish', async () => {
    const set = await setSites(['Docs.Python.org', ' 10.0.0.0/8 ', '[2001:db8::1]:443']);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(contestRowSchema.parse(set.body.data)).toMatchObject({
      id: contestId,
      allowed_sites: ['docs.python.org', '10.0.0.0/8', '[2001:db8::1]:443'],
      network_version: 1,
    });
    // The same list again changes nothing: no new version, no log row.
    expect(
      (await setSites(['docs.python.org', '10.0.0.0/8', '[2001:db8::1]:443'])).body.data.network_version,
    ).toBe(1);

    const bad = await setSites(['docs.python.org', 'https://chat.example.com/', 'ejemplo.com:99999']);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      'allowed_sites.1': [NETWORK_MESSAGES.noUrl],
      'allowed_sites.2': [NETWORK_MESSAGES.badPort],
    });
    expect((await setSites(['docs.python.org'], judge)).status).toBe(403);
    expect((await setSites(['docs.python.org'], admin, 999_999)).status).toBe(404);

    // The contest form's update carries them too: a change there is version 2.
    const updated = await callAs(server.app, admin, '/api/updateContest', {
      id: contestId,
      date: '2026-11-21',
      allowed_sites: ['docs.python.org', 'juez.example.edu:443'],
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data).toMatchObject({
      allowed_sites: ['docs.python.org', 'juez.example.edu:443'],
      network_version: 2,
    });
    // An update without the field keeps them.
    const kept = await callAs(server.app, admin, '/api/updateContest', { id: contestId, date: '2026-11-21' });
    expect(kept.body.data).toMatchObject({ network_version: 2 });
  });

  it('sends the active contest’s agents the list and its version, and another contest’s none', async () => {
    const config = await configOf(team.key);
    expect(config.network).toEqual({ version: 2, allowed: ['docs.python.org', 'juez.example.edu:443'] });
    await setSites(['docs.python.org'], admin, otherContestId);
    expect((await configOf(otherTeam.key)).network).toEqual({ version: 1, allowed: [] });
    // The policy's version follows the list: the agents see a new policy.
    const before = config.policy_version;
    await setSites(['docs.python.org', 'juez.example.edu:443', 'es.cppreference.com']);
    const after = await configOf(team.key);
    expect(after.network.version).toBe(3);
    expect(after.policy_version).not.toBe(before);
  });

  it('keeps every change in the contest’s log, with who made it', async () => {
    const res = await callAs(server.app, admin, '/api/contestLog');
    const rows = contestLogSchema.parse(res.body.data).rows.filter((row) => row.kind === 'red');
    expect(rows.map((row) => [row.network_version, row.user, row.team])).toEqual([
      [3, 'Usuario admin_sites', null],
      [2, 'Usuario admin_sites', null],
      [1, 'Usuario admin_sites', null],
    ]);
    expect(networkLogText(rows[1]!.network_version!, rows[1]!.allowed_sites!)).toBe(
      'Sitios permitidos v2: docs.python.org, juez.example.edu:443',
    );
    // A filter by team leaves them out: they are the contest's, not a team's.
    const filtered = await callAs(server.app, admin, `/api/contestLog?teams_id=${team.id}`);
    expect(contestLogSchema.parse(filtered.body.data).rows.some((row) => row.kind === 'red')).toBe(false);
  });

  it('shows on the lab board which version each machine has in force, or why it failed', async () => {
    await callAs(server.app, team.key, '/api/agent/heartbeat', {
      hostname: 'lab-1',
      network_version: 3,
    });
    await callAs(server.app, team.key, '/api/agent/heartbeat', {
      hostname: 'lab-2',
      network_version: 2,
      network_error: 'No se encontró el programa nft: instale nftables (apt install nftables).',
    });
    const res = await callAs(server.app, judge, '/api/labMachines');
    const machines = labMachinesSchema.parse(res.body.data).machines;
    expect(machines.map((m) => [m.hostname, labNetworkState(m)])).toEqual([
      ['lab-1', { text: 'red: v3 aplicada', tone: 'ok' }],
      [
        'lab-2',
        {
          text: 'red: no aplicada (No se encontró el programa nft: instale nftables (apt install nftables).)',
          tone: 'error',
        },
      ],
    ]);
    // Emptied: a new version with no destinations, and the machine that lifted its rules says so.
    await setSites([]);
    await callAs(server.app, team.key, '/api/agent/heartbeat', { hostname: 'lab-1', network_version: 4 });
    const lifted = labMachinesSchema.parse((await callAs(server.app, judge, '/api/labMachines')).body.data);
    expect(labNetworkState(lifted.machines.find((m) => m.hostname === 'lab-1')!)).toEqual({
      text: 'red: sin restricciones',
      tone: 'neutral',
    });
  });
});
