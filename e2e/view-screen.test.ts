import { afterAll, describe, expect, it } from 'vitest';
import { USER_TYPES, type CaptureRequest } from '@concurso/shared';
import { agentTeam, connectAgentSocket, createUser, startContest, type AgentSocket } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { openSignedIn } from './pages/login-page.js';
import { ScreenView } from './pages/screen-view.js';

/**
 * «Ver pantalla» end to end in Chromium: a judge on the live board clicks «Ver pantalla» on a team
 * whose agent is online; the team's agent (a socket.io-client on the agents' channel, answering like
 * the real one) gets `agent.capture.request` and uploads a capture; the judge's dialog shows the
 * image. «Ver en vivo» asks again, one request at a time. Prints the time from the click to the image.
 */
describe('«Ver pantalla» from the board', () => {
  const bed = useWebTestBed();
  const sockets: AgentSocket[] = [];

  afterAll(() => {
    sockets.forEach((socket) => socket.close());
    bed.server.app.server.closeAllConnections();
  });

  it("shows the team's screen to the judge, and keeps it fresh while «Ver en vivo» is on", async () => {
    const { adminToken, contestId } = await startContest(bed.server, 'admin_pantalla');
    await createUser(bed.server.orm, USER_TYPES.judge, 'juez_pantalla', 'clave-juez');
    const team = await agentTeam(bed.server, adminToken, { contestId, name: 'Los Observados' });
    const agentCall = (path: string, body: object) =>
      fetch(`${bed.server.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${team.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await agentCall('/api/agent/heartbeat', { hostname: 'lab-01' })).status).toBe(200);

    const { page } = await openSignedIn(
      bed.browser,
      bed.server.url,
      'juez_pantalla',
      'clave-juez',
      '/homeJuez',
    );
    // The team's agent: answers each request with a capture of "its screen".
    const agent = await connectAgentSocket(bed.server.url, team.key);
    sockets.push(agent.socket);
    const requests: CaptureRequest[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    agent.socket.on('agent.capture.request', (request: CaptureRequest) => {
      requests.push(request);
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      // Its "screen": a JPEG of the judge's own page, 800 × 450 (a real image, no library needed).
      void page
        .screenshot({ type: 'jpeg', quality: 60, clip: { x: 0, y: 0, width: 800, height: 450 } })
        .then((jpeg) =>
          agentCall('/api/agent/capture', {
            request_id: request.request_id,
            moment: 'pedida',
            hostname: 'lab-01',
            taken_at: new Date().toISOString(),
            mime: 'image/jpeg',
            image: jpeg.toString('base64'),
          }),
        )
        .finally(() => {
          inFlight -= 1;
        });
    });

    const view = new ScreenView(page);
    await view.boardButton(team.id).waitFor();
    const clicked = performance.now();
    await view.boardButton(team.id).click();
    await view.captures().first().waitFor();
    await expect.poll(() => view.firstImageWidth(), { timeout: 5_000 }).toBe(800);
    console.log(
      `«Ver pantalla» en Chromium: imagen a la vista ${(performance.now() - clicked).toFixed(0)} ms después del clic`,
    );
    expect(requests).toHaveLength(1);
    await expect(view.captures().first().textContent()).resolves.toContain('Pedida por un juez · lab-01');

    await view.liveLabel().click();
    await expect.poll(() => requests.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    expect(mostInFlight).toBe(1);
    await view.dialog().getByRole('button', { name: 'Cerrar' }).first().click();
    const asked = requests.length;
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(requests.length, 'closing the dialog stops «Ver en vivo»').toBeLessThanOrEqual(asked + 1);
  });
});
