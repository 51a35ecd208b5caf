import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_CHANNEL_LIMITS,
  LEVELS,
  MESSAGE_MAX_LENGTH,
  contestLogSchema,
  messageFailureText,
  messageRowSchema,
  messagesSchema,
  receiptState,
  receiptsText,
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
 * Messages to teams, on the server: a judge's message reaches the connected agents of its
 * target teams at once and a team connecting later before it expires; the agents' `entregado` and
 * `visto` fill the receipts the staff's screens refetch; nothing reaches another team.
 */
describe('messages to teams', () => {
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

    // The contest's log lists it once, with the receipts of the teams its filter keeps and who sent it.
    const log = await callAs(server.app, admin, `/api/contestLog?teams_id=${a.id}`);
    expect(log.body.data.rows.filter((r: { kind: string }) => r.kind === 'mensaje')).toEqual([
      expect.objectContaining({
        message: '30 minutos restantes',
        message_target: 'Nivel Básico',
        message_receipts: { teams: 1, delivered: 1, seen: 1, failed: 0, failures: [] },
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

  it('records a message a machine could not show (why, which machine) per team, only from a socket it was sent to, and sends it again', async () => {
    const res = await send({ target: 'equipo', id: a.id, text: 'Atención: ¿sin pantalla?' });
    expect(res.status).toBe(200);
    const id = messageRowSchema.parse(res.body.data).id;
    const machine = await agent(a.key);
    await expect.poll(() => machine.messages().map((m) => m.id)).toContain(id);
    const stranger = await agent(c.key);
    // Another team's socket, and a reason past the bound, change nothing.
    stranger.socket.emit('agent.message.failed', { id, reason: 'inventado', hostname: 'lab-99' });
    machine.socket.emit('agent.message.failed', { id, reason: 'x'.repeat(500), hostname: 'lab-05' });
    machine.socket.emit('agent.message.failed', { id, reason: 'sin sesión gráfica', hostname: 'lab-05' });
    const mine = async () => (await list()).find((row) => row.id === id)!;
    await expect.poll(async () => (await mine()).failed).toBe(1);
    const row = await mine();
    expect(row.receipts).toEqual([
      expect.objectContaining({ failure: 'sin sesión gráfica', failed_on: 'lab-05', delivered_at: null }),
    ]);
    expect(receiptState(row.receipts[0]!)).toBe('falló');
    expect(receiptsText(row)).toBe('entregado 0/1, visto 0/1, falló 1');
    expect(
      messageFailureText(row.receipts[0]!.team.name, row.receipts[0]!.failed_on, row.receipts[0]!.failure!),
    ).toBe('no se pudo mostrar en A Básico (lab-05): sin sesión gráfica');

    // Not shown: the next connection of the machine gets it again, and once shown it is `entregado`.
    machine.socket.close();
    const again = await agent(a.key);
    await expect.poll(() => again.messages().map((m) => m.id)).toContain(id);
    again.socket.emit('agent.message.delivered', id);
    await expect.poll(async () => receiptState((await mine()).receipts[0]!)).toBe('entregado');
    expect((await mine()).failed).toBe(0);
    // A failure after it was shown (another machine, late) does not undo it.
    again.socket.emit('agent.message.failed', { id, reason: 'sin sesión gráfica', hostname: 'lab-06' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await mine()).failed).toBe(0);
  });

  it('takes no failure for a message that was not sent to that socket (expired before it connected)', async () => {
    const res = await send({ target: 'equipo', id: b.id, text: 'Caducado', expires_minutes: 1 });
    const id = res.body.data.id as number;
    await server.orm.em
      .fork()
      .execute('update messages set expires_at = now(3) - interval 1 second where id = ?', [id], 'run');
    const machine = await agent(b.key);
    await new Promise((resolve) => setTimeout(resolve, 200));
    machine.socket.emit('agent.message.failed', { id, reason: 'sin sesión gráfica', hostname: 'lab-02' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [receipt] = await server.orm.em
      .fork()
      .execute<Array<{ failed_at: Date | null }>>(
        'select failed_at from message_receipts where messages_id = ?',
        [id],
      );
    expect(receipt!.failed_at).toBeNull();
  });

  it('counts failures against the socket’s event limit', async () => {
    const res = await send({ target: 'equipo', id: c.id, text: 'Muchos fallos' });
    const id = res.body.data.id as number;
    const machine = await agent(c.key);
    await expect.poll(() => machine.messages().map((m) => m.id)).toContain(id);
    for (let i = 0; i <= AGENT_CHANNEL_LIMITS.eventsPerWindow; i++)
      machine.socket.emit('agent.message.failed', { id, reason: `fallo ${i}`, hostname: 'lab-03' });
    await expect.poll(() => machine.socket.connected).toBe(false);
  });

  it('folds a message to everyone into ONE log row with its receipts, and filters the log by kind', async () => {
    const res = await send({ target: 'todos', text: 'Quedan 30 minutos' });
    const id = res.body.data.id as number;
    const machines = await Promise.all([agent(a.key), agent(b.key), agent(c.key)]);
    for (const machine of machines)
      await expect.poll(() => machine.messages().map((m) => m.id)).toContain(id);
    machines[0]!.socket.emit('agent.message.delivered', id);
    machines[1]!.socket.emit('agent.message.failed', {
      id,
      reason: 'zenity no está instalado',
      hostname: 'lab-02',
    });
    const log = async (query: string) => {
      const answer = await callAs(server.app, admin, `/api/contestLog${query}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return contestLogSchema.parse(answer.body.data).rows;
    };
    await expect
      .poll(async () => (await log('?kind=mensaje')).find((r) => r.id === id)?.message_receipts?.failed)
      .toBe(1);
    const rows = (await log('')).filter((r) => r.kind === 'mensaje' && r.id === id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      team: null,
      message_target: 'Todos los equipos',
      message_receipts: {
        teams: 3,
        delivered: 1,
        seen: 0,
        failed: 1,
        failures: [{ team: 'B Básico', hostname: 'lab-02', reason: 'zenity no está instalado' }],
      },
    });
    expect(new Set((await log('?kind=mensaje')).map((r) => r.kind))).toEqual(new Set(['mensaje']));
    expect((await log('?kind=agente')).filter((r) => r.kind !== 'agente')).toEqual([]);
    expect((await callAs(server.app, admin, '/api/contestLog?kind=todo')).status).toBe(422);
  });
});
