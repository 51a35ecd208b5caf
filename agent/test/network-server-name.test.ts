import type { ChildProcess } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_NAMESPACE } from '@concurso/shared';
import {
  LAB_SERVER_NAME,
  agentTeam,
  callAs,
  createContest,
  createLabNetwork,
  labNetworkSupport,
  signInStaff,
  startTestServer,
  type LabNetwork,
  type TestServer,
} from '@concurso/testkit';
import { cleanUp, tempDir } from './helpers/processes.js';

const BIN = fileURLToPath(new URL('../bin/concurso-agent.js', import.meta.url));

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
  let net: LabNetwork;
  let server: TestServer;
  let admin: string;
  let contestId: number;
  let keyFile: string;
  let dataDir: string;
  let byName: string;
  let agent: { child: ChildProcess; output: string[] };
  const children: ChildProcess[] = [];

  const setSites = async (sites: string[]) => {
    const res = await callAs(server.app, admin, '/api/updateAllowedSites', {
      contests_id: contestId,
      allowed_sites: sites,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  /** The lab board's one machine (null before it is heard). */
  const machine = async () => {
    const machines = (await callAs(server.app, admin, '/api/labMachines')).body.data?.machines ?? [];
    return (machines[0] ?? null) as { last_seen: string; network_version: number | null } | null;
  };
  /** The ids of the push channel's connections the server holds now (its Socket.IO server, `app.io`). */
  const pushIds = () => {
    const io = (server.app as unknown as { io: { of(name: string): { sockets: Map<string, unknown> } } }).io;
    return [...io.of(AGENT_NAMESPACE).sockets.keys()];
  };
  const startAgent = () => {
    const child = net.spawnIn(
      net.lab,
      process.execPath,
      [BIN, '--server', byName, '--key-file', keyFile, '--data-dir', dataDir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const output: string[] = [];
    let rest = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop()!;
      output.push(...parts);
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
    children.push(child);
    return { child, output };
  };
  /** Until the lab's ruleset does (or does not) hold `text`, within `ms`: the time it took (ms). */
  const untilRuleset = async (text: string, present: boolean, ms: number) => {
    const since = performance.now();
    for (;;) {
      if ((await net.labRuleset()).includes(text) === present) return performance.now() - since;
      if (performance.now() - since > ms)
        throw new Error(`the ruleset ${present ? 'lacks' : 'holds'} ${text}:\n${agent.output.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  /**
   * Cuts every connection of the lab machine to the server (the agent's HTTP keep-alive and push
   * channel) and waits until the agent has opened new ones: a new push connection and two heartbeats
   * after the cut (`last_seen` moves on twice).
   */
  const cutAndWaitBack = async () => {
    const before = pushIds();
    await net.runIn(net.lab, 'ss', ['-K', '-t', '-n', 'dst', net.serverAddress]);
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
  const rogueQueries = () => net.dnsQueries().filter((q) => q.resolver === 'rogue');

  beforeAll(async () => {
    const missing = await labNetworkSupport();
    if (missing) throw new Error(`npm test needs the lab network: ${missing}`);
    net = await createLabNetwork();
    // A short offline window: the agents beat every second.
    server = await startTestServer({ agentOfflineAfterMs: 3_000 }, { host: net.serverAddress });
    byName = `http://${LAB_SERVER_NAME}:${new URL(server.url).port}`;
    ({ admin } = await signInStaff(server, 'server-name'));
    contestId = (await createContest(server.orm)).id;
    const team = await agentTeam(server, admin, { contestId, name: 'Los Nombrados' });
    keyFile = path.join(await tempDir('agent-server-name-key-'), 'concurso-agent.key');
    await writeFile(keyFile, `${team.key}\n`);
    await chmod(keyFile, 0o600);
    dataDir = await tempDir('agent-server-name-data-');
  }, 60_000);

  afterAll(async () => {
    children.forEach((child) => child.kill('SIGKILL'));
    await cleanUp();
    server?.app.server.closeAllConnections();
    await server?.close();
    await net?.close();
  }, 60_000);

  it('starts with the server by name and puts the policy in force', async () => {
    // The name resolves on the lab machine through its DNS server.
    expect(await net.fetchFromLab(`${byName}/api/health`)).toMatch(/^ok /);
    agent = startAgent();
    await expect.poll(machine, { timeout: 15_000 }).not.toBeNull();
    await setSites(['permitido.prueba']);
    await untilRuleset('table inet concurso', true, 15_000);
    await expect.poll(async () => (await machine())!.network_version, { timeout: 10_000 }).toBe(1);
  }, 60_000);

  it("keeps reaching the server when the lab's DNS server is changed to another", async () => {
    await net.setLabResolver(net.rogueDnsAddress);
    // What the agent no longer does: the system's resolver (root's, through the new resolv.conf) finds
    // no address for the server's name, the rules keeping root off that DNS server.
    expect(await net.fetchFromLab(`${byName}/api/health`, 3_000)).toMatch(/^error /);
    await cutAndWaitBack();
    // The push channel that came back carries a change of the list.
    await setSites(['permitido.prueba', net.forbiddenAddress]);
    const ms = await untilRuleset(net.forbiddenAddress, true, 5_000);
    console.log(`policy change in force ${ms.toFixed(0)} ms after «Guardar», reconnected by name`);
    expect(rogueQueries()).toEqual([]);
  }, 60_000);

  it('reaches it again after a restart, the saved policy restored', async () => {
    agent.child.kill('SIGTERM');
    await new Promise((resolve) => agent.child.once('exit', resolve));
    agent = startAgent();
    await expect
      .poll(() => agent.output.join('\n'), { timeout: 15_000 })
      .toContain('Red: política v2 restablecida al iniciar');
    await cutAndWaitBack();
    await setSites(['permitido.prueba']);
    const ms = await untilRuleset(net.forbiddenAddress, false, 5_000);
    console.log(`policy change in force ${ms.toFixed(0)} ms after «Guardar», after a restart`);
    expect(rogueQueries()).toEqual([]);
  }, 60_000);
});
