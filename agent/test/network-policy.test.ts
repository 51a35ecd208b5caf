import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labMachinesSchema } from '@concurso/shared';
import {
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
import { NETWORK_STATE_FILE } from '../src/network/network-guard.js';
import { cleanUp, tempDir } from './helpers/processes.js';

const BIN = fileURLToPath(new URL('../bin/concurso-agent.js', import.meta.url));

/** Someone else's table in the lab (a site's own rules): the agent must leave it byte for byte. */
const FOREIGN_TABLE = `table inet vecino {
	set confiables {
		type ipv4_addr
		elements = { 192.0.2.1, 198.51.100.7 }
	}

	chain entrada {
		type filter hook input priority filter + 5; policy accept;
		ip saddr @confiables accept
	}
}
`;

/**
 * The network policy (docs/design.md section 6a), the real agent as a lab runs it (the CLI as root) in a
 * network namespace of its own (testkit's `createLabNetwork`: never the machine's own namespace), against the
 * real server: while the contest with allowed sites is active, only the allowed site (by name, through the
 * lab's DNS), the server and DNS are reachable; killed with SIGKILL and started again after a "reboot" (its
 * rules gone) with the server out of reach, it puts the last policy back before any config; deactivating the
 * contest lifts it and leaves the lab's ruleset as it was; a stopped agent keeps the rules and `--levantar`
 * removes them. The agent's blocked set is empty: it ends nothing.
 */
describe('the network policy on a lab machine (Linux)', () => {
  let net: LabNetwork;
  let server: TestServer;
  let admin: string;
  let judge: string;
  let contestId: number;
  let otherContestId: number;
  let keyFile: string;
  let dataDir: string;
  const children: ChildProcess[] = [];

  const allowedUrl = () => 'http://permitido.prueba/';
  const forbiddenUrl = () => `http://${net.forbiddenAddress}/`;
  const forbiddenByName = () => 'http://prohibido.prueba/';

  beforeAll(async () => {
    const missing = await labNetworkSupport();
    if (missing) throw new Error(`npm test needs the lab network: ${missing}`);
    net = await createLabNetwork();
    // The agent in the lab reaches the server on this machine's side of the lab's link.
    server = await startTestServer({ agentOfflineAfterMs: 3_000 }, { host: net.serverAddress });
    ({ admin, judge } = await signInStaff(server, 'network'));
    contestId = (await createContest(server.orm)).id;
    otherContestId = (await createContest(server.orm, '2026-05-02', { active: false })).id;
    const team = await agentTeam(server, admin, { contestId, name: 'Los Encerrados' });
    keyFile = path.join(await tempDir('agent-network-key-'), 'concurso-agent.key');
    await writeFile(keyFile, `${team.key}\n`);
    await chmod(keyFile, 0o600);
    dataDir = await tempDir('agent-network-data-');
    await net.runIn(net.lab, 'nft', ['-f', '-'], FOREIGN_TABLE);
  }, 60_000);

  afterAll(async () => {
    children.forEach((child) => child.kill('SIGKILL'));
    await cleanUp();
    server?.app.server.closeAllConnections();
    await server?.close();
    await net?.close();
  }, 60_000);

  /** The CLI in the lab namespace; its output is kept for a failure's message. */
  const startAgent = (extra: string[] = []) => {
    const child = net.spawnIn(
      net.lab,
      process.execPath,
      [BIN, '--server', server.url, '--key-file', keyFile, '--data-dir', dataDir, ...extra],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const output: string[] = [];
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
    children.push(child);
    return { child, output };
  };
  const exited = (child: ChildProcess) =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
      else child.once('exit', (code) => resolve(code));
    });
  /** The one agent still running. */
  const runningAgent = () => {
    const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
    expect(running).toHaveLength(1);
    return running[0]!;
  };
  const setSites = async (sites: string[]) => {
    const res = await callAs(server.app, admin, '/api/updateAllowedSites', {
      contests_id: contestId,
      allowed_sites: sites,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const activate = async (id: number) => {
    const res = await callAs(server.app, admin, `/api/activateContest/${id}`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const ourTable = async () => (await net.labRuleset()).includes('table inet concurso');
  /** Prints how long after `since` (performance.now()) the lab's ruleset `holds` (polled every ~20 ms). */
  const printApplyTime = async (what: string, since: number, holds: (ruleset: string) => boolean) => {
    while (!holds(await net.labRuleset())) {
      if (performance.now() - since > 15_000) throw new Error(`${what}: not in force within 15 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    console.log(`${what}: in force ${(performance.now() - since).toFixed(0)} ms later`);
  };

  it('reaches only the allowed site, the server and DNS while the contest is active, and everything after', async () => {
    const rulesetBefore = await net.labRuleset();
    expect(rulesetBefore).toBe(FOREIGN_TABLE);
    // With no policy, the lab reaches both sites (the outside's DNS names them).
    expect(await net.fetchFromLab(allowedUrl())).toBe('ok permitido');
    expect(await net.fetchFromLab(forbiddenByName())).toBe('ok prohibido');

    const { output } = startAgent();
    await expect
      .poll(async () => (await callAs(server.app, judge, '/api/labMachines')).body.data.machines.length, {
        timeout: 15_000,
      })
      .toBe(1);
    expect(await ourTable()).toBe(false);

    const saved = performance.now();
    await setSites(['permitido.prueba']);
    await printApplyTime('«Guardar» of the first list', saved, (r) => r.includes('table inet concurso'));
    await expect.poll(() => net.fetchFromLab(forbiddenUrl()), { timeout: 10_000 }).toMatch(/^error /);
    expect(await net.fetchFromLab(forbiddenByName())).toMatch(/^error /);
    // The allowed site by its name: the lab's resolver answers, and the address it gave is allowed.
    expect(await net.fetchFromLab(allowedUrl())).toBe('ok permitido');
    // The foreign table is untouched while ours is in force.
    expect(await net.runIn(net.lab, 'nft', ['list', 'table', 'inet', 'vecino'])).toBe(FOREIGN_TABLE);
    // The machine says it has version 1 in force (its heartbeat), filtering the name by the name
    // itself (its DNS forwarder and name filter run), for /laboratorio.
    await expect
      .poll(
        async () => {
          const machine = labMachinesSchema.parse(
            (await callAs(server.app, judge, '/api/labMachines')).body.data,
          ).machines[0];
          return machine && { version: machine.network_version, filter: machine.network_filter };
        },
        { timeout: 10_000 },
      )
      .toEqual({ version: 1, filter: 'name' });
    expect(output.join('')).toContain('Red: política v1 en vigor (1 sitio permitido');

    // Deactivated (another contest active): the rules are lifted, the ruleset is what it was.
    await activate(otherContestId);
    await expect.poll(() => net.fetchFromLab(forbiddenUrl()), { timeout: 10_000 }).toBe('ok prohibido');
    expect(await net.fetchFromLab(allowedUrl())).toBe('ok permitido');
    expect(await net.labRuleset()).toBe(rulesetBefore);
    expect(existsSync(path.join(dataDir, NETWORK_STATE_FILE))).toBe(false);
  }, 90_000);

  it('puts the last policy back at start before any config, keeps it while the server is out of reach, and connects once it is back', async () => {
    await activate(contestId);
    await expect.poll(() => net.fetchFromLab(forbiddenUrl()), { timeout: 10_000 }).toMatch(/^error /);
    const running = runningAgent();
    running.kill('SIGKILL');
    await exited(running);
    // A reboot: the kernel's rules are gone, the agent's saved policy is not.
    await net.runIn(net.lab, 'nft', ['delete', 'table', 'inet', 'concurso']);
    expect(await net.fetchFromLab(forbiddenUrl())).toBe('ok prohibido');

    await net.serverLink(false);
    const { output } = startAgent();
    // It cannot get a config (the server is out of reach): it says so and keeps running, with the
    // rules in force (connecting-agent.ts).
    await expect
      .poll(() => output.join(''), { timeout: 20_000 })
      .toContain(
        `Sin conexión con el servidor ${server.url}: se sigue aplicando la última configuración guardada`,
      );
    expect(output.join('')).toContain('Red: política v1 restablecida al iniciar');
    expect(await ourTable()).toBe(true);
    expect(await net.fetchFromLab(forbiddenUrl())).toMatch(/^error /);
    expect(await net.fetchFromLab(allowedUrl())).toBe('ok permitido');

    // Back in reach: the same agent connects; the list's change arrives and is put in force.
    await net.serverLink(true);
    await expect
      .poll(() => output.join(''), { timeout: 20_000 })
      .toContain('Conexión con el servidor restablecida.');
    const changed = performance.now();
    await setSites(['permitido.prueba', net.forbiddenAddress]);
    await printApplyTime('«Guardar» of a change', changed, (r) => r.includes(net.forbiddenAddress));
    await expect.poll(() => net.fetchFromLab(forbiddenUrl()), { timeout: 10_000 }).toBe('ok prohibido');
    await setSites(['permitido.prueba']);
    await expect.poll(() => net.fetchFromLab(forbiddenUrl()), { timeout: 10_000 }).toMatch(/^error /);
  }, 90_000);

  it('keeps the rules when the agent stops, and --levantar removes only its own', async () => {
    const running = runningAgent();
    running.kill('SIGTERM');
    expect(await exited(running)).toBe(0);
    expect(await ourTable()).toBe(true);
    expect(await net.fetchFromLab(forbiddenUrl())).toMatch(/^error /);

    const lift = net.spawnIn(net.lab, process.execPath, [BIN, '--levantar', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    lift.stdout!.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
    expect(await exited(lift)).toBe(0);
    expect(said).toContain('Reglas de red del agente retiradas');
    expect(await net.labRuleset()).toBe(FOREIGN_TABLE);
    expect(existsSync(path.join(dataDir, NETWORK_STATE_FILE))).toBe(false);
    expect(await net.fetchFromLab(forbiddenUrl())).toBe('ok prohibido');
  }, 60_000);
});
