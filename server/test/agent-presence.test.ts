import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVELS, type BoardTeam, decodeBoardFrame } from '@concurso/shared';
import { startAgent } from '../../agent/src/agent.js';
import { tempDir, cleanUp } from '../../agent/test/helpers/processes.js';
import { agentTeam, connectSocket, startContest, startTestServer, type TestServer } from '@concurso/testkit';

/**
 * DESIGN.md section 6: the board's `agent_online` follows the real agent's heartbeats; stopped the
 * documented way (issue 24) it says so, and the boards show it offline at once with «detenido».
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

  it('turns online when the agent starts, and offline at once with «detenido» when it is stopped', async () => {
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
    try {
      const agent = await startAgent({
        server: server.url,
        key: team.key,
        dataDir: await tempDir('agent-presence-'),
        heartbeatMs: 300,
        pollMs: 500,
        log: () => undefined,
      });
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
      // Nothing more when the delay passes: no «sin señal» for an agent that said it stopped.
      await new Promise((r) => setTimeout(r, OFFLINE_AFTER_MS * 2));
      expect(seen.filter((e) => !e.row.agent_online).map((e) => e.row.agent_alert)).toEqual(['detenido']);
    } finally {
      screen.close();
    }
  });
});
