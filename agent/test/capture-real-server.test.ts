import { decode } from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureRowSchema, viewScreenResultSchema, type CaptureRow } from '@concurso/shared';
import {
  agentTeam,
  callAs,
  startContest,
  startTestServer,
  startXvfb,
  type TestServer,
  type VirtualDisplay,
} from '@concurso/testkit';
import { startAgent, type AgentHandle } from '../src/agent.js';
import { xwdGrabber } from '../src/capture-screen.js';
import type { MessageScreen } from '../src/message-screen.js';
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
 * The agent's captures against the real server (server/src/modules/captures): with the contest's
 * «Capturar la pantalla en cada intento» on (its default), ending a program the test made stores
 * «antes» and «despues» for its attempt, and a judge's «Ver pantalla» (`POST /api/viewScreen`) gets
 * the machine's screen within the server's wait. The screen is Xvfb, painted one colour by a window
 * of the test; the images the server keeps decode to that colour.
 */
describe('captures against the real server', () => {
  let screen: VirtualDisplay;
  let server: TestServer;
  let agent: AgentHandle | undefined;
  let judgeToken: string;
  let contestId: number;

  beforeAll(async () => {
    screen = await startXvfb();
    server = await startTestServer();
    ({ adminToken: judgeToken, contestId } = await startContest(server, 'admin_capturas_agente'));
    await screen.paint('#b8860b');
  }, 120_000);

  afterAll(async () => {
    await agent?.stop();
    await cleanUp();
    screen?.stop();
    server?.app.server.closeAllConnections();
    await server?.close();
  }, 60_000);

  /** The colour at the centre of a stored capture, read back through `GET /api/captures/:id`. */
  const centreOf = async (row: CaptureRow): Promise<number[]> => {
    const res = await server.app.inject({
      method: 'GET',
      url: `/api/captures/${row.id}`,
      headers: { authorization: `Bearer ${judgeToken}` },
    });
    expect(res.statusCode).toBe(200);
    const image = decode(res.rawPayload, { useTArray: true });
    const at = (Math.floor(image.height / 2) * image.width + Math.floor(image.width / 2)) * 4;
    return [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!];
  };
  const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 8);
  const colour = [0xb8, 0x86, 0x0b];

  it('a kill stores «antes» and «despues» of its attempt; «Ver pantalla» gets the screen now', async () => {
    const name = uniqueName('capturado');
    const team = await agentTeam(server, judgeToken, { contestId, name: 'Los Capturados', blocked: [name] });
    const notices: string[] = [];
    const stand: MessageScreen = {
      show: () => ({ shown: Promise.resolve({ shown: true }), closed: Promise.resolve(false) }),
      notice: (message) => {
        notices.push(message.text);
        return { shown: Promise.resolve({ shown: true }), closed: Promise.resolve(false) };
      },
    };
    const lines: string[] = [];
    agent = await startAgent({
      server: server.url,
      key: team.key,
      dataDir: await tempDir('agent-capturas-'),
      lister: ownChildren,
      pollMs: 200,
      screenGrabber: xwdGrabber(screen.display),
      messageScreen: stand,
      log: (line) => lines.push(line),
    });
    expect(agent.config.capture_screens, 'el concurso captura por omisión').toBe(true);

    const program = await spawnProcess(await blockedBinary(name), ['300']);
    const killed = program.exited.then(() => Date.now());
    await within(10_000, program.exited, 'el programa bloqueado terminado');

    // A figure, not an assertion: from the program's end (its exit seen by the test) to the moment the
    // judge's list (polled every 50 ms) shows its «antes».
    let rows: CaptureRow[] = [];
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !rows.some((r) => r.moment === 'antes')) {
      const list = await callAs(server.app, judgeToken, `/api/captureList?teams_id=${team.id}`);
      rows = captureRowSchema.array().parse(list.body.data ?? []);
      if (!rows.some((r) => r.moment === 'antes')) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    console.log(
      `El juez ve la captura «antes» ${Date.now() - (await killed)} ms después del fin del programa`,
    );
    while (Date.now() < deadline) {
      const list = await callAs(server.app, judgeToken, `/api/captureList?teams_id=${team.id}`);
      rows = captureRowSchema.array().parse(list.body.data ?? []);
      if (rows.length >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(rows.map((r) => r.moment).sort(), lines.join('\n')).toEqual(['antes', 'despues']);
    expect(new Set(rows.map((r) => r.event_id)).size).toBe(1);
    expect(rows[0]!.width).toBeLessThanOrEqual(1280);
    for (const row of rows) expect(near(await centreOf(row), colour), `${await centreOf(row)}`).toBe(true);

    // «Ver pantalla»: the server waits for the agent's capture (the push channel must be up).
    const connected = Date.now() + 10_000;
    while (!agent.stats.pushConnected && Date.now() < connected) await new Promise((r) => setTimeout(r, 20));
    const asked = Date.now();
    const view = await callAs(server.app, judgeToken, '/api/viewScreen', { teams_id: team.id });
    expect(view.status, JSON.stringify(view.body)).toBe(200);
    const result = viewScreenResultSchema.parse(view.body.data);
    console.log(`«Ver pantalla» respondió en ${Date.now() - asked} ms`);
    expect(result.captures.map((c) => c.moment)).toEqual(['pedida']);
    expect(near(await centreOf(result.captures[0]!), colour)).toBe(true);
    expect(notices.length).toBe(1);
  }, 90_000);
});
