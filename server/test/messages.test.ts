import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LEVELS,
  MESSAGE_MAX_LENGTH,
  messageRowSchema,
  messagesSchema,
  type AgentMessage,
} from '@concurso/shared';
import {
  agentTeam,
  callAs,
  connectAgentSocket,
  connectSocket,
  createContest,
  createTeam,
  signInStaff,
  startTestServer,
  type AgentSocket,
  type BoardSocket,
  type TestServer,
} from '@concurso/testkit';

/**
 * Issue 24, messages to teams, on the server: a judge's message reaches the connected agents of its
 * target teams at once and a team connecting later before it expires; the agents' `entregado` and
 * `visto` fill the receipts the staff's screens refetch; nothing reaches another team.
 */
describe('messages to teams (issue 24)', () => {
  let server: TestServer;
  let judge: string;
  let admin: string;
  let contestId: number;
  let a: { id: number; key: string };
  let b: { id: number; key: string };
  let c: { id: number; key: string };
  const open: Array<AgentSocket | BoardSocket> = [];

  const agent = async (key: string) => {
    const connected = await connectAgentSocket(server.url, key);
    open.push(connected.socket);
    // Every event since the handshake (a pending message may come before the first policy).
    const messages = () =>
      connected.events
        .filter(([event]) => event === 'agent.message')
        .map(([, payload]) => payload as AgentMessage);
    return { socket: connected.socket, messages };
  };
  const send = (body: object, token = judge) => callAs(server.app, token, '/api/sendMessage', body);
  const list = async () =>
    messagesSchema.parse((await callAs(server.app, admin, '/api/messages')).body.data).rows;

  beforeAll(async () => {
    server = await startTestServer();
    ({ admin, judge } = await signInStaff(server, 'mensajes'));
    contestId = (await createContest(server.orm)).id;
    a = await agentTeam(server, admin, { contestId, name: 'A Básico' });
    b = await agentTeam(server, admin, { contestId, name: 'B Básico' });
    c = await agentTeam(server, admin, { contestId, name: 'C Avanzado', levelsId: LEVELS.avanzado });
  });

  afterAll(async () => {
    open.forEach((socket) => socket.close());
    await server?.close();
  });

  it("sends a level's teams a message, counts what their agents showed and closed, and tells the screens", async () => {
    const first = await agent(a.key);
    const other = await agent(c.key);
    const screen = await connectSocket(server.url, admin);
    open.push(screen);
    const changed: string[] = [];
    screen.on('catalog.changed', ({ catalog }) => changed.push(catalog));

    const res = await send({ target: 'nivel', id: LEVELS.basico, text: '30 minutos restantes' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = messageRowSchema.parse(res.body.data);
    expect(row).toMatchObject({ target_label: 'Nivel Básico', teams: 2, delivered: 0, seen: 0 });
    expect(row.sender).toBe('Usuario juez_mensajes');
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(15 * 60_000);

    await expect.poll(() => first.messages().map((m) => m.text)).toEqual(['30 minutos restantes']);
    first.socket.emit('agent.message.delivered', row.id);
    await expect.poll(async () => (await list())[0]!.delivered).toBe(1);
    // The machine's socket reconnects while the message is on screen: it is not shown again, and the
    // contestant's «visto», sent at once on the new socket, still counts.
    first.socket.close();
    const reconnected = await agent(a.key);
    reconnected.socket.emit('agent.message.seen', row.id);
    await expect.poll(async () => (await list())[0]!.seen).toBe(1);
    expect(reconnected.messages()).toEqual([]);
    // Another team's agent neither gets it nor counts for it.
    other.socket.emit('agent.message.seen', row.id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(other.messages()).toEqual([]);
    const [listed] = await list();
    expect({ delivered: listed!.delivered, seen: listed!.seen }).toEqual({ delivered: 1, seen: 1 });
    expect(listed!.receipts.map((r) => [r.team.id, r.delivered_at !== null, r.seen_at !== null])).toEqual([
      [a.id, true, true],
      [b.id, false, false],
    ]);
    expect(changed).toContain('messages');

    // The contest's log lists it for each of its teams, with the receipt and who sent it.
    const log = await callAs(server.app, admin, `/api/contestLog?teams_id=${a.id}`);
    expect(log.body.data.rows.filter((r: { kind: string }) => r.kind === 'mensaje')).toEqual([
      expect.objectContaining({
        message: '30 minutos restantes',
        message_receipt: 'visto',
        user: 'Usuario juez_mensajes',
      }),
    ]);

    // A team whose machine was off gets it when its agent connects, before it expires.
    const late = await agent(b.key);
    await expect.poll(() => late.messages().map((m) => m.id)).toEqual([row.id]);
  });

  it('gives a connecting agent nothing that has expired', async () => {
    const res = await send({ target: 'equipo', id: c.id, text: 'Cierre el navegador', expires_minutes: 1 });
    expect(res.status).toBe(200);
    await server.orm.em
      .fork()
      .execute(
        'update messages set expires_at = now(3) - interval 1 second where id = ?',
        [res.body.data.id],
        'run',
      );
    const again = await agent(c.key);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(again.messages().map((m) => m.id)).not.toContain(res.body.data.id);
  });

  it('refuses a message without a target team in the active contest, too long, or from an agent key', async () => {
    const old = await createContest(server.orm, '2026-05-02', { active: false });
    const stranger = await createTeam(server.orm, old.id, LEVELS.basico, 'De otro concurso');
    expect((await send({ target: 'equipo', text: 'Hola' })).status).toBe(422);
    expect((await send({ target: 'equipo', id: stranger.id, text: 'Hola' })).status).toBe(422);
    expect((await send({ target: 'todos', text: 'x'.repeat(MESSAGE_MAX_LENGTH + 1) })).status).toBe(422);
    expect((await send({ target: 'todos', text: 'Hola' }, a.key)).status).toBe(401);
    const everyone = await send({ target: 'todos', text: 'Buena suerte a todos' }, admin);
    expect(everyone.body.data).toMatchObject({ target_label: 'Todos los equipos', teams: 3 });
  });
});
