import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostname } from 'node:os';
import { LEVELS, type BoardTeam, agentEventText, decodeBoardFrame } from '@concurso/shared';
import { startAgent } from '../../agent/src/agent.js';
import { tempDir, cleanUp } from '../../agent/test/helpers/processes.js';
import { agentTeam, connectSocket, startContest, startTestServer, type TestServer } from '@concurso/testkit';

/**
 * docs/design.md section 6: the board's `agent_online` follows the real agent's heartbeats; stopped the
 * documented way it says so, and the boards show it offline at once with «detenido». During
 * the active contest a stop not resumed within the silent agent's window becomes «Agente detenido sin
 * reanudar» (docs/design.md section 6a: an alarm as a silence is), logged; started again, it is logged back
 * «en línea» with how long it was stopped.
 */
describe('agent presence on the boards', () => {
  const OFFLINE_AFTER_MS = 1_500;
  let server: TestServer;
  let token: string;
  let team: { id: number; key: string };

  beforeAll(async () => {
    server = await startTestServer({ agentOfflineAfterMs: OFFLINE_AFTER_MS });
    const { adminToken, contestId } = await startContest(server, 'admin_presence');
    token = adminToken;
    team = await agentTeam(server, token, { contestId, name: 'Los Latidos' });
  });
  afterAll(async () => {
    await cleanUp();
    await server?.close();
  });

  it('turns online when the agent starts, offline at once with «detenido» when it is stopped, «sin reanudar» after the window', async () => {
    const screen = await connectSocket(server.url, token, [LEVELS.basico]);
    const seen: Array<{ at: number; row: BoardTeam }> = [];
    screen.on('board.frame', (frame) =>
      decodeBoardFrame(frame).teams.forEach(
        (row) => row.id === team.id && seen.push({ at: Date.now(), row }),
      ),
    );
    const waitFor = async (online: boolean, withinMs: number) => {
      const deadline = Date.now() + withinMs;
      while (Date.now() < deadline) {
        const hit = seen.find((e) => e.row.agent_online === online);
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`agent_online=${online} not pushed within ${withinMs} ms`);
    };
    const dataDir = await tempDir('agent-presence-');
    const start = () =>
      startAgent({
        server: server.url,
        key: team.key,
        dataDir,
        heartbeatMs: 300,
        pollMs: 500,
        log: () => undefined,
      });
    /** The team's agent log rows (`agent_events`, what the Bitácora lists), newest first. */
    const agentLog = () =>
      server.orm.em
        .fork()
        .execute<Array<{ agent_event: string; hostname: string | null; silence_ms: number | null }>>(
          'select kind as agent_event, hostname, silence_ms from agent_events where teams_id = ? order by at desc, id desc',
          [team.id],
        );
    try {
      const agent = await start();
      const online = await waitFor(true, 3_000);
      const snapshot = await server.app.inject({
        method: 'GET',
        url: '/api/teamAttempts',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(snapshot.json().basico[0]).toMatchObject({ id: team.id, agent_online: true });

      const stopping = Date.now();
      await agent.stop();
      const offline = await waitFor(false, OFFLINE_AFTER_MS * 3);
      expect(offline.row.version).toBeGreaterThan(online.row.version);
      expect(offline.row.agent_alert).toBe('detenido');
      // At once, not after the silence delay: the agent said it stops.
      expect(offline.at - stopping).toBeLessThan(OFFLINE_AFTER_MS);
      // Not back within the silent agent's window: the alarm, never «sin señal» (it said it stopped).
      const deadline = Date.now() + OFFLINE_AFTER_MS * 4;
      while (Date.now() < deadline && !seen.some((e) => e.row.agent_alert === 'sin_reanudar'))
        await new Promise((r) => setTimeout(r, 25));
      const alarm = seen.find((e) => e.row.agent_alert === 'sin_reanudar');
      expect(alarm, 'sin_reanudar pushed').toBeDefined();
      expect(alarm!.at - stopping).toBeGreaterThanOrEqual(OFFLINE_AFTER_MS);
      console.log(
        `stop → «Agente detenido sin reanudar» on the board: ${alarm!.at - stopping} ms ` +
          `(window ${OFFLINE_AFTER_MS} ms)`,
      );
      expect(seen.filter((e) => !e.row.agent_online).map((e) => e.row.agent_alert)).toEqual([
        'detenido',
        'sin_reanudar',
      ]);
      const log = await agentLog();
      expect(log.map((row) => [row.agent_event, row.hostname])).toEqual([
        ['sin_reanudar', hostname()],
        ['detenido', hostname()],
      ]);

      // Started again: back «en línea», the row saying how long it was stopped (not «sin señal»).
      const again = await start();
      try {
        await expect
          .poll(async () => (await agentLog())[0]?.agent_event, { timeout: 5_000 })
          .toBe('reanudado');
        const [back] = await agentLog();
        expect(Number(back!.silence_ms)).toBeGreaterThanOrEqual(OFFLINE_AFTER_MS);
        const text = agentEventText('reanudado', null, Number(back!.silence_ms), back!.hostname);
        expect(text).toMatch(/^Agente de nuevo en línea en .+ tras \d+ s detenido$/);
        expect(seen.at(-1)!.row).toMatchObject({ agent_online: true, agent_alert: null });
      } finally {
        await again.stop();
      }
    } finally {
      screen.close();
    }
  });
});
