import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_SHOW_RETRY_MS, messagesSchema, receiptState, type AgentMessage } from '@concurso/shared';
import { agentTeam, callAs, startContest, startTestServer, type TestServer } from '@concurso/testkit';
import { startAgent, type AgentHandle } from '../src/agent.js';
import type { MessageScreen, ShowOutcome } from '../src/message-screen.js';
import { cleanUp, ownChildren, tempDir } from './helpers/processes.js';

/**
 * A judges' message the machine could not show, with the real agent against the real server: the
 * agent reports it `falló` with its reason and machine (the sender reads it per team), tries again
 * after `MESSAGE_SHOW_RETRY_MS[0]`, and once the retry shows it the receipt is `entregado`. The
 * screen is a stand-in that fails as a machine without a graphical session does, then works.
 */
describe('a message the screen could not show is reported and tried again', () => {
  let server: TestServer;
  let judgeToken: string;
  let team: { id: number; key: string };
  let agent: AgentHandle | undefined;

  beforeAll(async () => {
    server = await startTestServer();
    let contestId: number;
    ({ adminToken: judgeToken, contestId } = await startContest(server, 'admin_mensaje_reintento'));
    team = await agentTeam(server, judgeToken, { contestId, name: 'Los Sin Pantalla' });
  }, 120_000);

  afterAll(async () => {
    await agent?.stop();
    await cleanUp();
    server?.app.server.closeAllConnections();
    await server?.close();
  }, 60_000);

  it('reports «sin sesión gráfica», then shows it on the retry and reports it delivered', async () => {
    const shows: Array<{ id: number; at: number }> = [];
    const outcomes: ShowOutcome[] = [{ shown: false, reason: 'sin sesión gráfica' }, { shown: true }];
    const screen: MessageScreen = {
      show(message: AgentMessage) {
        shows.push({ id: message.id, at: Date.now() });
        return {
          shown: Promise.resolve(outcomes.shift() ?? { shown: true }),
          closed: new Promise(() => undefined),
        };
      },
    };
    const lines: string[] = [];
    agent = await startAgent({
      server: server.url,
      key: team.key,
      dataDir: await tempDir('agent-message-retry-'),
      lister: ownChildren,
      pollMs: 500,
      messageScreen: screen,
      log: (line) => lines.push(line),
    });
    const connected = Date.now() + 10_000;
    while (!agent.stats.pushConnected && Date.now() < connected) await new Promise((r) => setTimeout(r, 20));

    const sent = await callAs(server.app, judgeToken, '/api/sendMessage', {
      target: 'equipo',
      id: team.id,
      text: 'Atención: quedan 30 minutos',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const receipt = async () =>
      messagesSchema.parse((await callAs(server.app, judgeToken, '/api/messages')).body.data).rows[0]!
        .receipts[0]!;

    // The failure reaches the sender with the reason and the machine (kept after the retry showed it).
    await expect.poll(async () => (await receipt()).failure, { timeout: 5_000 }).toBe('sin sesión gráfica');
    expect((await receipt()).failed_on).toBeTruthy();
    expect(lines).toContain(
      `No se pudo mostrar un mensaje de los jueces: sin sesión gráfica. Se reintentará en ${MESSAGE_SHOW_RETRY_MS[0] / 1000} s.`,
    );

    // The retry shows it: entregado.
    await expect
      .poll(async () => receiptState(await receipt()), { timeout: MESSAGE_SHOW_RETRY_MS[0] + 5_000 })
      .toBe('entregado');
    expect(shows.map((show) => show.id)).toEqual([sent.body.data.id, sent.body.data.id]);
    expect(shows[1]!.at - shows[0]!.at).toBeGreaterThanOrEqual(MESSAGE_SHOW_RETRY_MS[0] - 50);
  }, 30_000);
});
