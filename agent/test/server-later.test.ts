import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptLogRow } from '@concurso/shared';
import {
  agentTeam,
  dropDatabase,
  freePort,
  startContest,
  startTestServer,
  type TestServer,
} from '@concurso/testkit';
import { startAgent, type AgentHandle } from '../src/agent.js';
import {
  blockedBinary,
  cleanUp,
  ownChildren,
  spawnProcess,
  tempDir,
  uniqueName,
  within,
} from './helpers/processes.js';

/**
 * A lab machine that boots before the network or the server (connecting-agent.ts): its agent starts
 * while nothing listens on the server's port, keeps running, and connects once the real server comes
 * up on that port (a fresh server on the same database each time, as after the server's own reboot).
 * With a config saved by an earlier run it ends a blocked program meanwhile, and the attempt reaches
 * the server once it answers. The time from the server listening to the agent's push channel being up
 * is printed (a figure, not an assertion: it depends on the probe period, 1 s by default).
 */
describe('an agent started before its server (real server)', () => {
  let databaseUrl: string;
  let jwtSecret: string;
  let adminToken: string;
  let url: string;
  let port: number;
  let team: { id: number; key: string };
  let blocked: string;
  let server: TestServer | undefined;
  let agent: AgentHandle | undefined;
  const connectMs: number[] = [];

  beforeAll(async () => {
    // The team, its key and its blocked program, made on a server that is then shut down.
    const setup = await startTestServer({}, { keepDatabase: true });
    databaseUrl = setup.config.databaseUrl;
    jwtSecret = setup.config.jwtSecret;
    let contestId: number;
    ({ adminToken, contestId } = await startContest(setup, 'admin_agent_later'));
    blocked = uniqueName('forbidden');
    team = await agentTeam(setup, adminToken, { contestId, name: 'Los Madrugadores', blocked: [blocked] });
    await setup.close();
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
  }, 120_000);

  afterAll(async () => {
    await agent?.stop();
    await cleanUp();
    await closeServer();
    await dropDatabase(databaseUrl);
    if (connectMs.length > 0)
      console.log(`Agente conectado tras levantarse el servidor: ${connectMs.join(', ')} ms`);
  }, 60_000);

  /** The server on the agent's port and the same database; the moment it listens (ms since epoch). */
  async function bringServerUp(): Promise<number> {
    server = await startTestServer({ jwtSecret }, { databaseUrl, port, keepDatabase: true });
    return Date.now();
  }

  async function closeServer(): Promise<void> {
    // The agents' keep-alive connections would hold the close until their timeout.
    server?.app.server.closeAllConnections();
    await server?.close();
    server = undefined;
  }

  /** Resolves once `check` holds (polled every 10 ms); answers the ms waited, or fails after `ms`. */
  async function until(check: () => boolean, what: string, ms = 20_000): Promise<number> {
    const started = Date.now();
    while (!check()) {
      if (Date.now() - started > ms) throw new Error(`${what}: no ocurrió en ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return Date.now() - started;
  }

  it('keeps running without its server and connects once the server comes up (3 boots)', async () => {
    for (let run = 0; run < 3; run++) {
      const lines: string[] = [];
      agent = await startAgent({
        server: url,
        key: team.key,
        dataDir: await tempDir('agent-later-'),
        lister: ownChildren,
        pollMs: 200,
        log: (line) => lines.push(line),
      });
      expect(lines).toEqual([
        expect.stringMatching(
          new RegExp(
            `^Sin conexión con el servidor ${url.replace(/\./g, '\\.')}: no hay una configuración guardada`,
          ),
        ),
      ]);
      // A few failed tries (the probe every second): still running, still offline.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(agent.stats).toMatchObject({ online: false, pushConnected: false });

      const upAt = await bringServerUp();
      await until(() => agent!.stats.pushConnected, 'el agente se conecta');
      connectMs.push(Date.now() - upAt);
      expect(agent.stats.online).toBe(true);
      expect(agent.config.team.id).toBe(team.id);
      expect(agent.config.blocked).toContain(blocked);
      expect(lines).toContain('Conexión con el servidor restablecida.');
      expect(lines).toContain(
        'Agente iniciado para el equipo "Los Madrugadores" (concurso ' +
          `${agent.config.contest.calendar}): 1 programa bloqueado, revisión cada 200 ms.`,
      );
      await agent.stop();
      agent = undefined;
      await closeServer();
    }
  }, 120_000);

  it('with a saved config and the server down, ends a blocked program it made, and reports it once the server is up', async () => {
    const dataDir = await tempDir('agent-later-');
    // An earlier run with the server up saves the config.
    await bringServerUp();
    const earlier = await startAgent({
      server: url,
      key: team.key,
      dataDir,
      lister: ownChildren,
      loop: false,
    });
    await earlier.stop();
    await closeServer();

    const lines: string[] = [];
    agent = await startAgent({
      server: url,
      key: team.key,
      dataDir,
      lister: ownChildren,
      pollMs: 200,
      log: (line) => lines.push(line),
    });
    expect(lines[0]).toBe(
      'Agente iniciado sin conexión con el servidor: se aplica la configuración guardada del equipo ' +
        '"Los Madrugadores" (1 programa bloqueado).',
    );
    const program = await spawnProcess(await blockedBinary(blocked), ['300']);
    await within(5_000, program.exited, 'el agente termina el programa bloqueado sin servidor');
    expect(agent.stats.online).toBe(false);

    const upAt = await bringServerUp();
    await until(() => agent!.stats.pushConnected, 'el agente se conecta');
    connectMs.push(Date.now() - upAt);
    await until(() => agent!.stats.pending === 0 && agent!.stats.acknowledged === 1, 'el intento llega');
    const response = await fetch(`${url}/api/teamAttemptsLog/${team.id}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const rows = ((await response.json()) as { data: AttemptLogRow[] }).data;
    expect(rows).toEqual([expect.objectContaining({ process: blocked, killed: true })]);
  }, 120_000);
});
