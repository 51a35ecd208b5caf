import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LAB_MAX_MACHINES_PER_TEAM,
  MESSAGES,
  decodeBoardFrame,
  labMachinesSchema,
  type BoardTeam,
  type ContestLogRow,
} from '@concurso/shared';
import {
  agentTeam,
  callAs,
  connectSocket,
  createContest,
  createTeam,
  generateAgentKey,
  signInStaff,
  startTestServer,
  type BoardSocket,
  type TestServer,
} from '@concurso/testkit';

/**
 * Presence per machine (docs/design.md section 6a, the lab board): one silent machine raises «Agente sin
 * señal» for its team even while another of its host names beats, logged naming it; machines silent
 * past the window stop counting toward the per-team cap, so names a key made up first cannot keep the
 * real machine off the lab board; an admin removes a machine (and its alert); each machine shows the
 * source address of its last request. Under abuse: 300 alternations of stop and heartbeat from one key
 * leave a few log rows and board frames (rate limits per key and machine, changes coalesced), and
 * concurrent heartbeats of one team from many host names get no 503 (deadlocks retried).
 */
describe('presence per machine', () => {
  // Heartbeats every 667 ms, rate limits and coalescing counted per 1 s (whole seconds), so a key's
  // accepted beats are never a window apart, however hard it is limited.
  const OFFLINE_AFTER_MS = 2_000;
  let server: TestServer;
  let judge: string;
  let admin: string;
  let contestId: number;
  let screen: BoardSocket;
  const rows: BoardTeam[] = [];

  const beat = (key: string, hostname: string, remoteAddress?: string) =>
    server.app.inject({
      method: 'POST',
      url: '/api/agent/heartbeat',
      payload: { hostname, os: 'linux 6.1.0', version: '1.5.0' },
      headers: { authorization: `Bearer ${key}` },
      ...(remoteAddress ? { remoteAddress } : {}),
    });
  const stop = (key: string, hostname: string) =>
    server.app.inject({
      method: 'POST',
      url: '/api/agent/stopped',
      payload: { hostname },
      headers: { authorization: `Bearer ${key}` },
    });
  /** Beats `hostname` every 250 ms (well within the window and the rate) until the answer is called. */
  const keepBeating = (key: string, hostname: string) => {
    const timer = setInterval(() => void beat(key, hostname), 250);
    return () => clearInterval(timer);
  };
  const lab = async () => {
    const res = await callAs(server.app, judge, '/api/labMachines');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return labMachinesSchema.parse(res.body.data);
  };
  const machinesOf = async (teamId: number) => (await lab()).machines.filter((m) => m.team.id === teamId);
  const agentLog = async (teamId: number) => {
    const res = await callAs(server.app, judge, `/api/contestLog?teams_id=${teamId}`);
    expect(res.status).toBe(200);
    return (res.body.data.rows as ContestLogRow[]).filter((row) => row.kind === 'agente');
  };
  /** The newest board row pushed for `teamId` that satisfies `check` (waits up to 5 s). */
  const pushed = async (teamId: number, check: (row: BoardTeam) => boolean) => {
    await expect
      .poll(() => rows.some((row) => row.id === teamId && check(row)), { timeout: 5_000 })
      .toBe(true);
    return rows.filter((row) => row.id === teamId && check(row)).at(-1)!;
  };
  const remove = (token: string, body: object) =>
    server.app.inject({
      method: 'POST',
      url: '/api/removeLabMachine',
      payload: body,
      headers: { authorization: `Bearer ${token}` },
    });

  beforeAll(async () => {
    server = await startTestServer({ agentOfflineAfterMs: OFFLINE_AFTER_MS });
    ({ admin, judge } = await signInStaff(server, 'maquinas'));
    contestId = (await createContest(server.orm)).id;
    screen = await connectSocket(server.url, judge);
    screen.on('board.frame', (frame) => rows.push(...decodeBoardFrame(frame).teams));
  });

  afterAll(async () => {
    screen?.close();
    await server?.close();
  });

  it('alerts «sin señal» for one silent machine while another of its team beats, naming it, until it is back', async () => {
    const team = await agentTeam(server, admin, { contestId, name: 'Dos Máquinas' });
    expect((await beat(team.key, 'lab-1')).statusCode).toBe(200);
    const stopBeating = keepBeating(team.key, 'lab-2');
    try {
      await pushed(team.id, (row) => row.agent_online);
      const silent = await pushed(team.id, (row) => row.agent_alert === 'sin_senal');
      expect(silent.agent_online).toBe(false);
      const snapshot = await callAs(server.app, judge, '/api/teamAttempts');
      expect(snapshot.body.basico.find((row: BoardTeam) => row.id === team.id)).toMatchObject({
        agent_alert: 'sin_senal',
      });
      const [quiet] = await agentLog(team.id);
      expect(quiet).toMatchObject({ agent_event: 'sin_senal', hostname: 'lab-1' });
      const machines = await machinesOf(team.id);
      expect(machines.map((m) => [m.hostname, m.online, m.alert])).toEqual([
        ['lab-1', false, 'sin_senal'],
        ['lab-2', true, null],
      ]);

      expect((await beat(team.key, 'lab-1')).statusCode).toBe(200);
      const back = await pushed(team.id, (row) => row.agent_online && row.version > silent.version);
      expect(back.agent_alert).toBeNull();
      const log = await agentLog(team.id);
      expect(log.map((row) => [row.agent_event, row.hostname])).toEqual([
        ['en_linea', 'lab-1'],
        ['sin_senal', 'lab-1'],
      ]);
      expect(log[0]!.silence_ms).toBeGreaterThanOrEqual(OFFLINE_AFTER_MS);
    } finally {
      stopBeating();
    }
  });

  it(`lets the real machine on the board once ${LAB_MAX_MACHINES_PER_TEAM} names registered first go silent; an admin removes them`, async () => {
    const team = await agentTeam(server, admin, { contestId, name: 'Nombres Inventados' });
    for (let i = 0; i < LAB_MAX_MACHINES_PER_TEAM; i++)
      expect((await beat(team.key, `falsa-${i}`)).statusCode).toBe(200);
    expect((await beat(team.key, 'real')).statusCode).toBe(200);
    expect((await machinesOf(team.id)).map((m) => m.hostname)).not.toContain('real');

    // The made-up names fall silent (their own alarms: the key's team is flagged); the real one beats.
    const stopBeating = keepBeating(team.key, 'real');
    try {
      const settled = async () => {
        const machines = await machinesOf(team.id);
        return [
          machines.filter((m) => m.alert === 'sin_senal').length,
          machines.find((m) => m.hostname === 'real')?.online ?? false,
        ];
      };
      await expect.poll(settled, { timeout: 5_000 }).toEqual([LAB_MAX_MACHINES_PER_TEAM, true]);
      const machines = await machinesOf(team.id);
      expect(machines.find((m) => m.hostname === 'real')).toMatchObject({ online: true, alert: null });
      await pushed(team.id, (row) => row.agent_alert === 'sin_senal');

      // Only an admin removes, with a valid machine id.
      const fake = machines.find((m) => m.hostname === 'falsa-0')!;
      expect((await remove(judge, { id: fake.id })).statusCode).toBe(403);
      expect((await remove(admin, { id: 'x' })).statusCode).toBe(422);
      expect((await remove(admin, { id: 999_999 })).json()).toMatchObject({
        success: false,
        message: MESSAGES.labMachineNotFound,
      });
      for (const m of machines.filter((m) => m.hostname !== 'real')) {
        const res = await remove(admin, { id: m.id });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().message).toBe(MESSAGES.labMachineRemoved);
      }
      // The team's alert clears with the last alarmed machine removed; the real one stays.
      const clear = await pushed(team.id, (row) => row.agent_online && row.agent_alert === null);
      expect(clear.agent_online).toBe(true);
      expect((await machinesOf(team.id)).map((m) => m.hostname)).toEqual(['real']);
    } finally {
      stopBeating();
    }
  });

  it('keeps the team-level alert for an agent that names no machine, and logs its return naming one', async () => {
    const team = await agentTeam(server, admin, { contestId, name: 'Agente Antiguo' });
    const old = await callAs(server.app, team.key, '/api/agent/heartbeat', {});
    expect(old.status).toBe(200);
    await pushed(team.id, (row) => row.agent_alert === 'sin_senal');
    expect((await agentLog(team.id)).map((row) => [row.agent_event, row.hostname])).toEqual([
      ['sin_senal', null],
    ]);
    expect((await beat(team.key, 'lab-nuevo')).statusCode).toBe(200);
    await pushed(team.id, (row) => row.agent_online && row.agent_alert === null);
    expect((await agentLog(team.id)).map((row) => [row.agent_event, row.hostname])).toEqual([
      ['en_linea', 'lab-nuevo'],
      ['sin_senal', null],
    ]);
  });

  it('deletes machine rows silent for ten windows, except an unresolved «sin señal» or «detenido sin reanudar»', async () => {
    const team = await agentTeam(server, admin, { contestId, name: 'Máquinas Viejas' });
    expect((await beat(team.key, 'lab-parada')).statusCode).toBe(200);
    expect((await beat(team.key, 'lab-callada')).statusCode).toBe(200);
    expect((await stop(team.key, 'lab-parada')).statusCode).toBe(200);
    // A machine of a contest that is not the active one: its rows carry no alert, and go.
    const other = await createContest(server.orm, '2026-05-02', { active: false });
    const otherTeam = await createTeam(server.orm, other.id, 1, 'Equipo de 2026A');
    expect((await beat(await generateAgentKey(server.app, admin, otherTeam.id), 'lab-otra')).statusCode).toBe(
      200,
    );
    // Stopped and not back within the window: the same alarm as the silent one's.
    await expect
      .poll(async () => (await machinesOf(team.id)).map((m) => [m.hostname, m.alert]), { timeout: 5_000 })
      .toEqual([
        ['lab-callada', 'sin_senal'],
        ['lab-parada', 'sin_reanudar'],
      ]);
    const hosts = async () =>
      (
        await server.orm.em
          .fork()
          .execute<Array<{ hostname: string }>>(
            'select hostname from agent_machines where teams_id in (?, ?) order by hostname',
            [team.id, otherTeam.id],
          )
      ).map((row) => row.hostname);
    expect(await hosts()).toEqual(['lab-callada', 'lab-otra', 'lab-parada']);
    // All as if last heard 11 windows ago (the sweep deletes after 10).
    await server.orm.em
      .fork()
      .execute('update agent_machines set last_seen = ? where teams_id in (?, ?)', [
        new Date(Date.now() - 11 * OFFLINE_AFTER_MS),
        team.id,
        otherTeam.id,
      ]);
    await expect.poll(hosts, { timeout: 5_000 }).toEqual(['lab-callada', 'lab-parada']);
  });

  it('turns a stopped machine «detenido sin reanudar» after the window even while another beats, logs it, and logs its return as a stop', async () => {
    const team = await agentTeam(server, admin, { contestId, name: 'Parada Larga' });
    expect((await beat(team.key, 'lab-s1')).statusCode).toBe(200);
    expect((await beat(team.key, 'lab-s2')).statusCode).toBe(200);
    const stopBeating = keepBeating(team.key, 'lab-s2');
    try {
      await pushed(team.id, (row) => row.agent_online);
      const stoppedAt = Date.now();
      expect((await stop(team.key, 'lab-s1')).statusCode).toBe(200);
      // Within the window only the row's AGENTE says so: the team's other machine beats.
      expect((await machinesOf(team.id)).map((m) => [m.hostname, m.alert])).toEqual([
        ['lab-s1', 'detenido'],
        ['lab-s2', null],
      ]);
      const alarm = await pushed(team.id, (row) => row.agent_alert === 'sin_reanudar');
      expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(OFFLINE_AFTER_MS);
      expect(alarm.agent_online).toBe(false);
      const [s1] = await machinesOf(team.id);
      expect(s1).toMatchObject({ hostname: 'lab-s1', alert: 'sin_reanudar', online: false });
      // Since the stop, not since its last heartbeat.
      expect(Math.abs(Date.parse(s1!.alert_since!) - stoppedAt)).toBeLessThan(1_000);
      expect((await agentLog(team.id)).map((row) => [row.agent_event, row.hostname])).toEqual([
        ['sin_reanudar', 'lab-s1'],
        ['detenido', 'lab-s1'],
      ]);

      expect((await beat(team.key, 'lab-s1')).statusCode).toBe(200);
      const back = await pushed(team.id, (row) => row.agent_online && row.version > alarm.version);
      expect(back.agent_alert).toBeNull();
      const [resumed] = await agentLog(team.id);
      expect(resumed).toMatchObject({ agent_event: 'reanudado', hostname: 'lab-s1' });
      expect(resumed!.silence_ms).toBeGreaterThanOrEqual(OFFLINE_AFTER_MS);
    } finally {
      stopBeating();
    }
  });

  it("shows each machine's source address, as its last request came", async () => {
    const team = await agentTeam(server, admin, { contestId, name: 'Con Dirección' });
    expect((await beat(team.key, 'lab-d', '10.0.7.21')).statusCode).toBe(200);
    expect((await machinesOf(team.id))[0]).toMatchObject({ hostname: 'lab-d', address: '10.0.7.21' });
    expect((await beat(team.key, 'lab-d', '10.0.7.99')).statusCode).toBe(200);
    expect((await machinesOf(team.id))[0]!.address).toBe('10.0.7.99');
  });

  it('leaves a few log rows and board frames after 300 alternations of stop and heartbeat from one key', async () => {
    const team = await agentTeam(server, admin, { contestId, name: 'Los Intermitentes' });
    expect((await beat(team.key, 'lab-f')).statusCode).toBe(200);
    await pushed(team.id, (row) => row.agent_online);
    const framesBefore = rows.filter((row) => row.id === team.id).length;
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    let retryAfter: string | undefined;
    for (let i = 0; i < 300; i++) {
      const stopped = await stop(team.key, 'lab-f');
      count(stopped.statusCode);
      if (stopped.statusCode === 429) {
        retryAfter ??= String(stopped.headers['retry-after']);
        expect(stopped.json().message).toBe(MESSAGES.agentPresenceRateLimited);
      }
      count((await beat(team.key, 'lab-f')).statusCode);
    }
    expect([...statuses.keys()].sort()).toEqual([200, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    // The last state (beating) reaches the boards and the log once the flapping ends.
    const stopBeating = keepBeating(team.key, 'lab-f');
    try {
      await expect
        .poll(async () => (await agentLog(team.id))[0]?.agent_event, { timeout: 5_000 })
        .toBe('en_linea');
      await pushed(team.id, (row) => row.agent_online);
    } finally {
      stopBeating();
    }
    const log = await agentLog(team.id);
    const frames = rows.filter((row) => row.id === team.id).length - framesBefore;
    console.log(
      `300 alternations stop/heartbeat: ${log.length} agent_events rows, ${frames} board frames ` +
        `(answers: ${[...statuses].map(([status, n]) => `${n}× ${status}`).join(', ')})`,
    );
    expect(log.every((row) => row.hostname === 'lab-f')).toBe(true);
    // The rate limits alone let a few changes through each second; coalesced, the first and the last
    // remain (a pause of the machine longer than the quiet time may add one pair).
    const accepted = statuses.get(200)!;
    expect(log.length * 2).toBeLessThan(accepted);
    expect(log.length).toBeLessThanOrEqual(6);
    expect(frames).toBeLessThanOrEqual(6);
  });

  it('answers no 503 to 500 concurrent heartbeats of one team from many host names', async () => {
    const team = await agentTeam(server, admin, { contestId, name: 'Los Simultáneos' });
    const statuses = new Map<number, number>();
    for (let round = 0; round < 25; round++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => beat(team.key, `pc-${(round * 20 + i) % 30}`)),
      );
      for (const res of answers) statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    }
    console.log(
      `500 concurrent heartbeats of one team: ${[...statuses].map(([status, n]) => `${n}× ${status}`).join(', ')}`,
    );
    expect(statuses.get(503) ?? 0).toBe(0);
    expect(statuses.get(500) ?? 0).toBe(0);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(100);
  });
});
