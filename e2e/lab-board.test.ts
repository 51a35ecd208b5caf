import { hostname } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { USER_TYPES } from '@concurso/shared';
import { agentTeam, callAs, createUser, startContest } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { startAgent, type AgentHandle } from '../agent/src/agent.js';
import { cleanUp, spawnedByTest, tempDir } from '../agent/test/helpers/processes.js';
import { LabPage } from './pages/lab-page.js';
import { openSignedIn } from './pages/login-page.js';
import { axeFindings } from './pages/route-checks.js';

/**
 * The lab board (docs/design.md section 6a) in Chromium, for a judge: three teams, one with a real agent
 * running the current policy (green), one whose machine reports an older policy (amber), one whose real agent
 * was stopped (red, «Agente detenido», first in the table); 'Listos: 1 de 3 equipos', and no team listed
 * without a running agent (each has a machine on the table); nothing serious for axe-core.
 */
describe('the lab board in Chromium', () => {
  const bed = useWebTestBed();
  const agents: AgentHandle[] = [];

  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.stop()));
    await cleanUp();
    bed.server.app.server.closeAllConnections();
  });

  const start = async (key: string) => {
    const agent = await startAgent({
      server: bed.server.url,
      key,
      dataDir: await tempDir('lab-board-'),
      lister: spawnedByTest(),
      heartbeatMs: 300,
      log: () => undefined,
    });
    agents.push(agent);
    return agent;
  };

  it('shows each machine green, amber or red, the readiness line and the stopped machine first', async () => {
    const { adminToken, contestId } = await startContest(bed.server, 'admin_laboratorio');
    await createUser(bed.server.orm, USER_TYPES.judge, 'juez_laboratorio', 'clave-juez');
    const ready = await agentTeam(bed.server, adminToken, { contestId, name: 'Equipo Listo' });
    const stale = await agentTeam(bed.server, adminToken, { contestId, name: 'Equipo Atrasado' });
    const stopped = await agentTeam(bed.server, adminToken, { contestId, name: 'Equipo Detenido' });

    await start(ready.key);
    const toStop = await start(stopped.key);
    // Stopped once its machine is known (its first heartbeat answered).
    const machines = async () =>
      (
        (await callAs(bed.server.app, adminToken, '/api/labMachines')).body.data.machines as Array<{
          team: { id: number };
        }>
      ).map((machine) => machine.team.id);
    await expect.poll(machines, { timeout: 10_000 }).toContain(stopped.id);
    await toStop.stop();
    // A machine whose agent still runs an older policy, as its heartbeats say.
    expect(
      (
        await callAs(bed.server.app, stale.key, '/api/agent/heartbeat', {
          hostname: 'lab-atrasada',
          os: 'win32 10.0.19045',
          version: '1.3.0',
          policy_version: 'viejo',
        })
      ).status,
    ).toBe(200);

    const judge = await openSignedIn(
      bed.browser,
      bed.server.url,
      'juez_laboratorio',
      'clave-juez',
      '/homeJuez',
    );
    const lab = new LabPage(judge.page, bed.server.url);
    await lab.open();
    await expect
      .poll(() => lab.readiness().textContent(), { timeout: 10_000 })
      .toBe('Listos: 1 de 3 equipos');
    // The stopped team leads the table (red) instead of hiding among teams that never started one.
    await expect
      .poll(() => lab.agent(lab.firstRow()).getAttribute('data-agent-state'), { timeout: 10_000 })
      .toBe('detenido');
    expect(await lab.firstRow().textContent()).toContain('Equipo Detenido');
    expect(await lab.missing().count()).toBe(0);

    // The two real agents run on this machine: one row each, told apart by their team.
    const here = hostname();
    const row = (team: string) => lab.row(here).filter({ hasText: team });
    await expect
      .poll(() => row('Equipo Listo').locator('[data-policy-state]').getAttribute('data-policy-state'))
      .toBe('al_dia');
    expect(await lab.policy('lab-atrasada').textContent()).toBe('Atrasada');
    expect(await row('Equipo Detenido').locator('[data-policy-state]').textContent()).toBe('Detenido');
    expect(await row('Equipo Detenido').textContent()).toContain('Agente detenido');
    expect(await axeFindings(judge.page)).toEqual([]);
  });
});
