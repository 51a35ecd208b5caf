import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  CAPTURE_LIMITS,
  CAPTURE_MAX_BYTES,
  MESSAGES,
  captureRowSchema,
  type CaptureRequest,
} from '@concurso/shared';
import {
  agentTeam,
  callAs,
  connectAgentSocket,
  createContest,
  injectAttempts,
  newAttempts,
  signInStaff,
  startTestServer,
  type AgentSocket,
  type TestServer,
} from '@concurso/testkit';
import { Capture } from '../src/modules/captures/index.js';

/** A real JPEG of a screen-sized gradient, `width` pixels wide. */
async function screenJpeg(width = 1600, height = 900): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 90, b: 160 } } })
    .jpeg({ quality: 60 })
    .toBuffer();
}

/**
 * Screen captures on the server (server/src/modules/captures/README.md), on a real MariaDB with real
 * agent keys: what an agent may upload, what is stored, who may see it, the bounds, and «Ver pantalla»
 * through a real socket.io-client acting as the agent.
 */
describe('screen captures', () => {
  let server: TestServer;
  let admin: string;
  let judge: string;
  let contestId: number;
  let jpeg: Buffer;
  const open: AgentSocket[] = [];

  const upload = (key: string, body: object) =>
    server.app.inject({
      method: 'POST',
      url: '/api/agent/capture',
      headers: { authorization: `Bearer ${key}` },
      payload: body,
    });
  const forAttempt = (eventId: string, image: Buffer, extra: object = {}) => ({
    event_id: eventId,
    moment: 'antes',
    taken_at: new Date().toISOString(),
    mime: 'image/jpeg',
    image: image.toString('base64'),
    ...extra,
  });
  const storedAttempt = async (key: string) => {
    const [attempt] = newAttempts(['juego.exe']);
    expect((await injectAttempts(server.app, key, [attempt!])).statusCode).toBe(200);
    return attempt!.event_id;
  };

  beforeAll(async () => {
    server = await startTestServer();
    ({ admin, judge } = await signInStaff(server, 'capturas'));
    contestId = (await createContest(server.orm)).id;
    jpeg = await screenJpeg();
  });

  afterAll(async () => {
    open.forEach((socket) => socket.close());
    await server?.close();
  });

  it('stores a capture of a stored attempt, scaled to 1280 wide, and serves it to a judge, never to an agent key or anonymous', async () => {
    const team = await agentTeam(server, admin, { contestId, name: 'Capturas A' });
    const eventId = await storedAttempt(team.key);
    const res = await upload(team.key, forAttempt(eventId, jpeg, { hostname: 'lab-01' }));
    expect(res.statusCode, res.body).toBe(204);

    const list = await callAs(server.app, judge, `/api/captureList?teams_id=${team.id}&event_id=${eventId}`);
    expect(list.status).toBe(200);
    const [row] = captureRowSchema.array().parse(list.body.data);
    expect(row).toMatchObject({
      event_id: eventId,
      moment: 'antes',
      hostname: 'lab-01',
      width: 1280,
      height: 720,
    });

    // The history and /bitacora know the attempt by its row id.
    const [attempt] = (await callAs(server.app, judge, `/api/teamAttemptsLog/${team.id}`)).body.data;
    expect(row!.attempts_id).toBe(attempt.id);
    const byAttempt = await callAs(
      server.app,
      judge,
      `/api/captureList?teams_id=${team.id}&attempts_id=${attempt.id}`,
    );
    expect(byAttempt.body.data.map((capture: { id: number }) => capture.id)).toEqual([row!.id]);

    const image = await server.app.inject({
      url: `/api/captures/${row!.id}`,
      headers: { authorization: `Bearer ${judge}` },
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(String(image.headers['cache-control'])).toMatch(/^private/);
    expect(image.rawPayload.length).toBe(row!.bytes);
    expect((await sharp(image.rawPayload).metadata()).format).toBe('jpeg');

    const asAgent = await server.app.inject({
      url: `/api/captures/${row!.id}`,
      headers: { authorization: `Bearer ${team.key}` },
    });
    expect(asAgent.statusCode).toBe(401);
    expect((await server.app.inject({ url: `/api/captures/${row!.id}` })).statusCode).toBe(401);
    const listAsAgent = await server.app.inject({
      url: `/api/captureList?teams_id=${team.id}`,
      headers: { authorization: `Bearer ${team.key}` },
    });
    expect(listAsAgent.statusCode).toBe(401);
    // The same upload again is stored once.
    expect((await upload(team.key, forAttempt(eventId, jpeg, { hostname: 'lab-01' }))).statusCode).toBe(204);
    expect(await server.orm.em.fork().count(Capture, { team: team.id })).toBe(1);

    // The capture is a link of the contest's chain, and the chain verifies.
    const [links] = await server.orm.em
      .fork()
      .getConnection()
      .execute("select count(*) as n from contest_chain where kind = 'captura' and ref_id = ?", [row!.id]);
    expect(Number(links?.n)).toBe(1);
    const verdict = await callAs(server.app, judge, '/api/contestLog/verify');
    expect(verdict.body.data).toMatchObject({ ok: true });
  });

  it("refuses a capture for an unknown event id, another team's attempt, or a request nobody made", async () => {
    const team = await agentTeam(server, admin, { contestId, name: 'Capturas B' });
    const other = await agentTeam(server, admin, { contestId, name: 'Capturas C' });
    const unknown = await upload(team.key, forAttempt('no-existe-000', jpeg));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(MESSAGES.captureNotExpected);
    const othersAttempt = await storedAttempt(other.key);
    expect((await upload(team.key, forAttempt(othersAttempt, jpeg))).statusCode).toBe(404);
    const request = await upload(team.key, {
      request_id: '3f1c2a4e-8b7d-4c3e-9a1f-0e2d3c4b5a69',
      moment: 'pedida',
      taken_at: new Date().toISOString(),
      mime: 'image/jpeg',
      image: jpeg.toString('base64'),
    });
    expect(request.statusCode).toBe(404);
    expect(await server.orm.em.fork().count(Capture, { team: [team.id, other.id] })).toBe(0);
  });

  it('refuses a PNG or an SVG claiming image/jpeg, and re-encodes a JPEG polyglot so its payload is gone', async () => {
    const team = await agentTeam(server, admin, { contestId, name: 'Capturas D' });
    const eventId = await storedAttempt(team.key);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    for (const payload of [png, svg, Buffer.from('no es una imagen')]) {
      const res = await upload(team.key, forAttempt(eventId, payload));
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(MESSAGES.captureInvalidImage);
    }
    const marker = '<html><script>alert("poliglota")</script></html>';
    const polyglot = Buffer.concat([await screenJpeg(320, 200), Buffer.from(marker)]);
    expect((await upload(team.key, forAttempt(eventId, polyglot, { moment: 'despues' }))).statusCode).toBe(
      204,
    );
    const [row] = (await callAs(server.app, judge, `/api/captureList?teams_id=${team.id}`)).body.data;
    const image = await server.app.inject({
      url: `/api/captures/${row.id}`,
      headers: { authorization: `Bearer ${judge}` },
    });
    expect(image.rawPayload.includes(Buffer.from('poliglota'))).toBe(false);
    expect(image.rawPayload.subarray(0, 2).toString('hex')).toBe('ffd8');
  });

  it('answers 413 past 200 KB decoded and 429 past the per-key rate, with Retry-After', async () => {
    const team = await agentTeam(server, admin, { contestId, name: 'Capturas E' });
    const eventId = await storedAttempt(team.key);
    const large = await upload(team.key, forAttempt(eventId, Buffer.alloc(CAPTURE_MAX_BYTES + 1024, 0xff)));
    expect(large.statusCode).toBe(413);
    expect(large.json().message).toBe(MESSAGES.captureTooLarge);
    let limited: Awaited<ReturnType<typeof upload>> | undefined;
    for (let i = 0; i < CAPTURE_LIMITS.perMinute + 1 && !limited; i++) {
      const res = await upload(team.key, forAttempt('no-existe-000', jpeg));
      if (res.statusCode === 429) limited = res;
    }
    expect(limited?.json().message).toBe(MESSAGES.captureRateLimited);
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
  });

  it("keeps a team's captures within its bound: the oldest «pedida» go first, attempts' captures stay", async () => {
    const team = await agentTeam(server, admin, { contestId, name: 'Capturas F' });
    const em = server.orm.em.fork();
    // The team already holds its bound: two «pedida» captures (oldest) and the rest attempts'.
    const base = { contest: contestId, team: team.id, sha256: '0'.repeat(64), bytes: 1, width: 1, height: 1 };
    const at = new Date();
    em.create(Capture, { ...base, requestId: 'r-1', moment: 'pedida', takenAt: at, receivedAt: at });
    em.create(Capture, { ...base, requestId: 'r-2', moment: 'pedida', takenAt: at, receivedAt: at });
    for (let i = 0; i < CAPTURE_LIMITS.perTeam - 2; i++) {
      em.create(Capture, { ...base, eventId: `viejo-${i}`, moment: 'antes', takenAt: at, receivedAt: at });
    }
    await em.flush();

    const eventId = await storedAttempt(team.key);
    expect((await upload(team.key, forAttempt(eventId, jpeg))).statusCode).toBe(204);
    const check = server.orm.em.fork();
    expect(await check.count(Capture, { team: team.id, imageKept: true })).toBe(CAPTURE_LIMITS.perTeam);
    // The oldest «pedida» lost its image; its row stays (it is a link of the contest's chain).
    expect(await check.count(Capture, { team: team.id, requestId: 'r-1', imageKept: false })).toBe(1);
    expect(await check.count(Capture, { team: team.id, requestId: 'r-2', imageKept: true })).toBe(1);

    expect((await upload(team.key, forAttempt(eventId, jpeg, { moment: 'despues' }))).statusCode).toBe(204);
    // No «pedida» left: the next attempt's capture is refused and every attempt's capture is kept.
    const refused = await upload(team.key, forAttempt(eventId, jpeg, { hostname: 'lab-02' }));
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(MESSAGES.captureCapReached);
    expect(await check.count(Capture, { team: team.id, moment: { $ne: 'pedida' }, imageKept: true })).toBe(
      CAPTURE_LIMITS.perTeam,
    );
  });

  it('«Ver pantalla»: the agent socket gets agent.capture.request, uploads, and the judge has the image', async () => {
    const team = await agentTeam(server, admin, { contestId, name: 'Capturas G' });
    const agent = await connectAgentSocket(server.url, team.key);
    open.push(agent.socket);
    // The agent's side: answer each request with a capture of "its screen".
    const asked: CaptureRequest[] = [];
    agent.socket.on('agent.capture.request', (request: CaptureRequest) => {
      asked.push(request);
      void upload(team.key, {
        request_id: request.request_id,
        moment: 'pedida',
        hostname: 'lab-07',
        taken_at: new Date().toISOString(),
        mime: 'image/jpeg',
        image: jpeg.toString('base64'),
      });
    });
    const started = performance.now();
    const res = await callAs(server.app, judge, '/api/viewScreen', { teams_id: team.id });
    const elapsed = performance.now() - started;
    console.log(`«Ver pantalla»: capture shown to the judge ${elapsed.toFixed(0)} ms after the click`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(asked).toHaveLength(1);
    expect(res.body.data.request_id).toBe(asked[0]!.request_id);
    const [row] = captureRowSchema.array().parse(res.body.data.captures);
    expect(row).toMatchObject({ moment: 'pedida', hostname: 'lab-07', request_id: asked[0]!.request_id });
    const image = await server.app.inject({
      url: `/api/captures/${row!.id}`,
      headers: { authorization: `Bearer ${judge}` },
    });
    expect(image.statusCode).toBe(200);

    // The view is in /bitacora: who looked, when, which team (every machine: no host name).
    const log = await callAs(server.app, judge, `/api/contestLog?kind=pantalla&teams_id=${team.id}`);
    expect(log.status).toBe(200);
    expect(log.body.data.rows).toHaveLength(1);
    expect(log.body.data.rows[0]).toMatchObject({ kind: 'pantalla', team: { id: team.id }, hostname: null });
    expect(log.body.data.rows[0].user).toEqual(expect.any(String));

    // The request is closed to another team's key and, per machine, to another machine.
    const other = await agentTeam(server, admin, { contestId, name: 'Capturas H' });
    const stolen = await upload(other.key, {
      request_id: asked[0]!.request_id,
      moment: 'pedida',
      taken_at: new Date().toISOString(),
      mime: 'image/jpeg',
      image: jpeg.toString('base64'),
    });
    expect(stolen.statusCode).toBe(404);
  });

  it('«Ver pantalla» of one machine: the request names it, and another machine of the team cannot answer it', async () => {
    const team = await agentTeam(server, admin, { contestId, name: 'Capturas J' });
    const agent = await connectAgentSocket(server.url, team.key);
    open.push(agent.socket);
    const uploads: number[] = [];
    agent.socket.on('agent.capture.request', (request: CaptureRequest) => {
      const body = (hostname: string) => ({
        request_id: request.request_id,
        moment: 'pedida',
        hostname,
        taken_at: new Date().toISOString(),
        mime: 'image/jpeg',
        image: jpeg.toString('base64'),
      });
      // Two machines share the key: only the one asked for is taken.
      void upload(team.key, body('lab-99')).then((res) => uploads.push(res.statusCode));
      if (request.hostname === 'lab-08') void upload(team.key, body('lab-08'));
    });
    const res = await callAs(server.app, judge, '/api/viewScreen', { teams_id: team.id, hostname: 'lab-08' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.captures.map((c: { hostname: string }) => c.hostname)).toEqual(['lab-08']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(uploads).toEqual([404]);
    const log = await callAs(server.app, judge, `/api/contestLog?kind=pantalla&teams_id=${team.id}`);
    expect(log.body.data.rows[0]).toMatchObject({ hostname: 'lab-08' });
  });

  it('«Ver pantalla» of a team with no machine connected answers 409', async () => {
    const team = await agentTeam(server, admin, { contestId, name: 'Capturas I' });
    const res = await callAs(server.app, judge, '/api/viewScreen', { teams_id: team.id });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(MESSAGES.captureNoMachine);
  });
});
