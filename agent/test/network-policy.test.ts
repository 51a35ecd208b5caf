import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { labMachinesSchema } from '@concurso/shared';
import { callAs, createContest } from '@concurso/testkit';
import { NETWORK_STATE_FILE } from '../src/network/network-guard.js';
import { AGENT_BIN, exited, useLabBed } from './helpers/lab-agent.js';

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
  const lab = useLabBed('network', 'Los Encerrados');
  let otherContestId: number;

  const allowedUrl = () => 'http://permitido.prueba/';
  const forbiddenUrl = () => `http://${lab.net.forbiddenAddress}/`;
  const forbiddenByName = () => 'http://prohibido.prueba/';

  beforeAll(async () => {
    otherContestId = (await createContest(lab.server.orm, '2026-05-02', { active: false })).id;
    await lab.net.runIn(lab.net.lab, 'nft', ['-f', '-'], FOREIGN_TABLE);
  }, 60_000);

  /** The one agent still running. */
  const runningAgent = () => {
    const running = lab.runningAgents();
    expect(running).toHaveLength(1);
    return running[0]!;
  };
  const activate = async (id: number) => {
    const res = await callAs(lab.server.app, lab.admin, `/api/activateContest/${id}`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const ourTable = async () => (await lab.net.labRuleset()).includes('table inet concurso');
  /** Prints how long after `since` (performance.now()) the lab's ruleset `holds`. */
  const printApplyTime = async (what: string, since: number, holds: (ruleset: string) => boolean) => {
    const ms = await lab.untilRuleset(holds, what, { since });
    console.log(`${what}: in force ${ms.toFixed(0)} ms later`);
  };

  it('reaches only the allowed site, the server and DNS while the contest is active, and everything after', async () => {
    const rulesetBefore = await lab.net.labRuleset();
    expect(rulesetBefore).toBe(FOREIGN_TABLE);
    // With no policy, the lab reaches both sites (the outside's DNS names them).
    expect(await lab.net.fetchFromLab(allowedUrl())).toBe('ok permitido');
    expect(await lab.net.fetchFromLab(forbiddenByName())).toBe('ok prohibido');

    const { output } = lab.startAgent();
    await expect.poll(() => lab.machineCount(lab.judge), { timeout: 15_000 }).toBe(1);
    expect(await ourTable()).toBe(false);

    const saved = performance.now();
    await lab.setSites(['permitido.prueba']);
    await printApplyTime('«Guardar» of the first list', saved, (r) => r.includes('table inet concurso'));
    await expect.poll(() => lab.net.fetchFromLab(forbiddenUrl()), { timeout: 10_000 }).toMatch(/^error /);
    expect(await lab.net.fetchFromLab(forbiddenByName())).toMatch(/^error /);
    // The allowed site by its name: the lab's resolver answers, and the address it gave is allowed.
    expect(await lab.net.fetchFromLab(allowedUrl())).toBe('ok permitido');
    // The foreign table is untouched while ours is in force.
    expect(await lab.net.runIn(lab.net.lab, 'nft', ['list', 'table', 'inet', 'vecino'])).toBe(FOREIGN_TABLE);
    // The machine says it has version 1 in force (its heartbeat), filtering the name by the name
    // itself (its DNS forwarder and name filter run), for /laboratorio.
    await expect
      .poll(
        async () => {
          const machine = labMachinesSchema.parse(
            (await callAs(lab.server.app, lab.judge, '/api/labMachines')).body.data,
          ).machines[0];
          return machine && { version: machine.network_version, filter: machine.network_filter };
        },
        { timeout: 10_000 },
      )
      .toEqual({ version: 1, filter: 'name' });
    expect(output.join('\n')).toContain('Red: política v1 en vigor (1 sitio permitido');

    // Deactivated (another contest active): the rules are lifted, the ruleset is what it was.
    await activate(otherContestId);
    await expect.poll(() => lab.net.fetchFromLab(forbiddenUrl()), { timeout: 10_000 }).toBe('ok prohibido');
    expect(await lab.net.fetchFromLab(allowedUrl())).toBe('ok permitido');
    expect(await lab.net.labRuleset()).toBe(rulesetBefore);
    expect(existsSync(path.join(lab.dataDir, NETWORK_STATE_FILE))).toBe(false);
  }, 90_000);

  it('puts the last policy back at start before any config, keeps it while the server is out of reach, and connects once it is back', async () => {
    await activate(lab.contestId);
    await expect.poll(() => lab.net.fetchFromLab(forbiddenUrl()), { timeout: 10_000 }).toMatch(/^error /);
    const running = runningAgent();
    running.kill('SIGKILL');
    await exited(running);
    // A reboot: the kernel's rules are gone, the agent's saved policy is not.
    await lab.net.runIn(lab.net.lab, 'nft', ['delete', 'table', 'inet', 'concurso']);
    expect(await lab.net.fetchFromLab(forbiddenUrl())).toBe('ok prohibido');

    await lab.net.serverLink(false);
    const { output } = lab.startAgent();
    // It cannot get a config (the server is out of reach): it says so and keeps running, with the
    // rules in force (connecting-agent.ts).
    await expect
      .poll(() => output.join('\n'), { timeout: 20_000 })
      .toContain(
        `Sin conexión con el servidor ${lab.server.url}: se sigue aplicando la última configuración guardada`,
      );
    expect(output.join('\n')).toContain('Red: política v1 restablecida al iniciar');
    expect(await ourTable()).toBe(true);
    expect(await lab.net.fetchFromLab(forbiddenUrl())).toMatch(/^error /);
    expect(await lab.net.fetchFromLab(allowedUrl())).toBe('ok permitido');

    // Back in reach: the same agent connects; the list's change arrives and is put in force.
    await lab.net.serverLink(true);
    await expect
      .poll(() => output.join('\n'), { timeout: 20_000 })
      .toContain('Conexión con el servidor restablecida.');
    const changed = performance.now();
    await lab.setSites(['permitido.prueba', lab.net.forbiddenAddress]);
    await printApplyTime('«Guardar» of a change', changed, (r) => r.includes(lab.net.forbiddenAddress));
    await expect.poll(() => lab.net.fetchFromLab(forbiddenUrl()), { timeout: 10_000 }).toBe('ok prohibido');
    await lab.setSites(['permitido.prueba']);
    await expect.poll(() => lab.net.fetchFromLab(forbiddenUrl()), { timeout: 10_000 }).toMatch(/^error /);
  }, 90_000);

  it('keeps the rules when the agent stops, and --levantar removes only its own', async () => {
    const running = runningAgent();
    running.kill('SIGTERM');
    expect(await exited(running)).toBe(0);
    expect(await ourTable()).toBe(true);
    expect(await lab.net.fetchFromLab(forbiddenUrl())).toMatch(/^error /);

    const lift = lab.net.spawnIn(
      lab.net.lab,
      process.execPath,
      [AGENT_BIN, '--levantar', '--data-dir', lab.dataDir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let said = '';
    lift.stdout!.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
    expect(await exited(lift)).toBe(0);
    expect(said).toContain('Reglas de red del agente retiradas');
    expect(await lab.net.labRuleset()).toBe(FOREIGN_TABLE);
    expect(existsSync(path.join(lab.dataDir, NETWORK_STATE_FILE))).toBe(false);
    expect(await lab.net.fetchFromLab(forbiddenUrl())).toBe('ok prohibido');
  }, 60_000);
});
