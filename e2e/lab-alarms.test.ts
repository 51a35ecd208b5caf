import { afterAll, describe, expect, it } from 'vitest';
import { USER_TYPES } from '@concurso/shared';
import { agentTeam, callAs, createUser, startContest } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { startAgent, type AgentHandle } from '../agent/src/agent.js';
import { cleanUp, spawnedByTest, tempDir } from '../agent/test/helpers/processes.js';
import { LabPage } from './pages/lab-page.js';
import { openSignedIn } from './pages/login-page.js';

/**
 * /laboratorio in Chromium during the active contest, for a judge: a real agent stopped the documented
 * way (as SIGTERM or `systemctl stop` does) and not started again ends first in the table, red, saying
 * «Agente detenido sin reanudar hace …», ahead of six machines that beat (its team's name sorts last,
 * so the table's old order put it on page 2); «Sin agente en marcha» names only the team that never
 * started an agent. The silent agent's window is short here (3 s) so the stop becomes the alarm soon.
 */
describe('the lab board puts a stopped agent first, in red', () => {
  // Short, so the stop becomes the alarm soon; wide enough for the beating machines on a busy machine.
  const OFFLINE_AFTER_MS = 3_000;
  const bed = useWebTestBed({ agentOfflineAfterMs: OFFLINE_AFTER_MS });
  const agents: AgentHandle[] = [];
  let beating: NodeJS.Timeout | undefined;

  afterAll(async () => {
    clearInterval(beating);
    await Promise.all(agents.map((agent) => agent.stop()));
    await cleanUp();
    bed.server.app.server.closeAllConnections();
  });

  it('shows the stopped machine on top in red with how long, and only the team that never started as missing', async () => {
    const { adminToken, contestId } = await startContest(bed.server, 'admin_alarmas');
    await createUser(bed.server.orm, USER_TYPES.judge, 'juez_alarmas', 'clave-juez');
    const stopped = await agentTeam(bed.server, adminToken, { contestId, name: 'Equipo Alfa' });
    await agentTeam(bed.server, adminToken, { contestId, name: 'Equipo Nunca' });
    const others: Array<{ id: number; key: string }> = [];
    for (const name of ['Beta', 'Gamma', 'Delta', 'Épsilon', 'Zeta', 'Eta'])
      others.push(await agentTeam(bed.server, adminToken, { contestId, name: `Equipo ${name}` }));
    // Six machines that keep beating (well within the window), each of its own team.
    const beatAll = () =>
      Promise.all(
        others.map((team, i) =>
          callAs(bed.server.app, team.key, '/api/agent/heartbeat', {
            hostname: `lab-0${i + 1}`,
            os: 'linux 6.1.0',
            version: '1.5.0',
          }),
        ),
      );
    await beatAll();
    beating = setInterval(() => void beatAll(), 400);

    const agent = await startAgent({
      server: bed.server.url,
      key: stopped.key,
      dataDir: await tempDir('lab-alarms-'),
      lister: spawnedByTest(),
      heartbeatMs: 300,
      log: () => undefined,
    });
    agents.push(agent);
    const machinesOf = async () =>
      (
        (await callAs(bed.server.app, adminToken, '/api/labMachines')).body.data.machines as Array<{
          team: { id: number };
        }>
      ).map((machine) => machine.team.id);
    await expect.poll(machinesOf, { timeout: 10_000 }).toContain(stopped.id);

    const judge = await openSignedIn(bed.browser, bed.server.url, 'juez_alarmas', 'clave-juez', '/homeJuez');
    try {
      const lab = new LabPage(judge.page, bed.server.url);
      await lab.open();
      await expect.poll(() => lab.readiness().textContent(), { timeout: 10_000 }).toContain('Listos:');

      const stoppedAt = Date.now();
      await agent.stop();
      await expect
        .poll(() => lab.agent(lab.firstRow()).getAttribute('data-agent-state'), { timeout: 15_000 })
        .toBe('alarma');
      const shownAfterMs = Date.now() - stoppedAt;
      const first = lab.firstRow();
      expect(await first.textContent()).toContain('Equipo Alfa');
      expect(await lab.agent(first).textContent()).toMatch(/^Agente detenido sin reanudar hace \d+ s$/);
      // Red: the badge's background is a red (its red channel well above the others).
      const [r, g, b] = (await lab.agent(first).evaluate((badge) => getComputedStyle(badge).backgroundColor))
        .match(/\d+/g)!
        .map(Number);
      expect(r).toBeGreaterThan(150);
      expect(r! - Math.max(g!, b!)).toBeGreaterThan(80);
      console.log(`stop → first row red «Agente detenido sin reanudar» on /laboratorio: ${shownAfterMs} ms`);
      // The machines that beat follow, in green.
      expect(await lab.agent(lab.row('lab-01')).getAttribute('data-agent-state')).toBe('en_linea');
      expect(await lab.missing().textContent()).toBe('Sin agente en marcha: Equipo Nunca (Básico)');
    } finally {
      await judge.context.close();
    }
  });
});
