import { beforeAll, describe, expect, it } from 'vitest';
import { AGENT_NAMESPACE } from '@concurso/shared';
import { LAB_SERVER_NAME, callAs } from '@concurso/testkit';
import { exited, useLabBed, type LabAgent } from './helpers/lab-agent.js';

/**
 * The agent given its server by NAME on a lab machine (the CLI as root in a network namespace of its
 * own, testkit's `createLabNetwork`; the real server): once the network policy is in force, the console
 * user pointing the machine at a DNS server of their own (which the rules keep root from asking) does
 * not cut the agent off its server. Its connections are cut (`ss -K`) so it must open new ones, by
 * name, with the rogue resolver in resolv.conf: heartbeats keep arriving, the push channel comes back
 * and carries a policy change, and so after a restart (the saved policy restored); the rogue resolver
 * hears nothing, while any other program as root can no longer resolve the server's name.
 */
describe('the agent reaches its server by name whatever DNS server the machine names (Linux)', () => {
  const lab = useLabBed('server-name', 'Los Nombrados');
  let byName: string;
  let agent: LabAgent;

  /** The lab board's one machine (null before it is heard). */
  const machine = async () => {
    const machines = (await callAs(lab.server.app, lab.admin, '/api/labMachines')).body.data?.machines ?? [];
    return (machines[0] ?? null) as { last_seen: string; network_version: number | null } | null;
  };
  /** The ids of the push channel's connections the server holds now (its Socket.IO server, `app.io`). */
  const pushIds = () => {
    const io = (lab.server.app as unknown as { io: { of(name: string): { sockets: Map<string, unknown> } } })
      .io;
    return [...io.of(AGENT_NAMESPACE).sockets.keys()];
  };
  /**
   * Cuts every connection of the lab machine to the server (the agent's HTTP keep-alive and push
   * channel) and waits until the agent has opened new ones: a new push connection and two heartbeats
   * after the cut (`last_seen` moves on twice).
   */
  const cutAndWaitBack = async () => {
    const before = pushIds();
    await lab.net.runIn(lab.net.lab, 'ss', ['-K', '-t', '-n', 'dst', lab.net.serverAddress]);
    const cutAt = (await machine())!.last_seen;
    await expect
      .poll(() => pushIds().filter((id) => !before.includes(id)).length, { timeout: 15_000 })
      .toBeGreaterThan(0);
    let seen = cutAt;
    for (let beats = 0; beats < 2; beats += 1) {
      const last = seen;
      await expect
        .poll(async () => Date.parse((await machine())!.last_seen) > Date.parse(last), { timeout: 10_000 })
        .toBe(true);
      seen = (await machine())!.last_seen;
    }
  };
  const rogueQueries = () => lab.net.dnsQueries().filter((q) => q.resolver === 'rogue');

  beforeAll(() => {
    byName = `http://${LAB_SERVER_NAME}:${new URL(lab.server.url).port}`;
  });

  it('starts with the server by name and puts the policy in force', async () => {
    // The name resolves on the lab machine through its DNS server.
    expect(await lab.net.fetchFromLab(`${byName}/api/health`)).toMatch(/^ok /);
    agent = lab.startAgent({ server: byName });
    await expect.poll(machine, { timeout: 15_000 }).not.toBeNull();
    await lab.setSites(['permitido.prueba']);
    await lab.untilRuleset((r) => r.includes('table inet concurso'), 'the policy');
    await expect.poll(async () => (await machine())!.network_version, { timeout: 10_000 }).toBe(1);
  }, 60_000);

  it("keeps reaching the server when the lab's DNS server is changed to another", async () => {
    await lab.net.setLabResolver(lab.net.rogueDnsAddress);
    // What the agent no longer does: the system's resolver (root's, through the new resolv.conf) finds
    // no address for the server's name, the rules keeping root off that DNS server.
    expect(await lab.net.fetchFromLab(`${byName}/api/health`, 3_000)).toMatch(/^error /);
    await cutAndWaitBack();
    // The push channel that came back carries a change of the list.
    await lab.setSites(['permitido.prueba', lab.net.forbiddenAddress]);
    const ms = await lab.untilRuleset((r) => r.includes(lab.net.forbiddenAddress), 'the change', {
      ms: 5_000,
    });
    console.log(`policy change in force ${ms.toFixed(0)} ms after «Guardar», reconnected by name`);
    expect(rogueQueries()).toEqual([]);
  }, 60_000);

  it('reaches it again after a restart, the saved policy restored', async () => {
    agent.child.kill('SIGTERM');
    await exited(agent.child);
    agent = lab.startAgent({ server: byName });
    await expect
      .poll(() => agent.output.join('\n'), { timeout: 15_000 })
      .toContain('Red: política v2 restablecida al iniciar');
    await cutAndWaitBack();
    await lab.setSites(['permitido.prueba']);
    const ms = await lab.untilRuleset((r) => !r.includes(lab.net.forbiddenAddress), 'the change', {
      ms: 5_000,
    });
    console.log(`policy change in force ${ms.toFixed(0)} ms after «Guardar», after a restart`);
    expect(rogueQueries()).toEqual([]);
  }, 60_000);
});
