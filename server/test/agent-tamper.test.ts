import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVELS, decodeBoardFrame, type BoardTeam, type ContestLogRow } from '@concurso/shared';
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
 * The tamper alert (docs/design.md section 6a, the lab board), at the agent protocol: an agent that stops
 * beating during the active contest without saying so (killed, unplugged, cut off: the server sees
 * only its heartbeats stop) is shown «sin señal» on the boards and logged with the last time it was
 * seen; when it beats again it is logged back online with the silence's length; one stopped the
 * documented way is logged «detenido», and «detenido sin reanudar» when not back after the window; a
 * team of another contest raises nothing.
 */
describe('the silent agent alert', () => {
  const OFFLINE_AFTER_MS = 1_000;
  let server: TestServer;
  let judge: string;
  let admin: string;
  let contestId: number;
  let screen: BoardSocket;
  const rows: BoardTeam[] = [];

  const beat = async (key: string) => {
    const res = await callAs(server.app, key, '/api/agent/heartbeat', {});
    expect(res.status).toBe(200);
  };
  /** The newest board row pushed for `teamId` that satisfies `check` (waits up to 5 s). */
  const pushed = async (teamId: number, check: (row: BoardTeam) => boolean) => {
    await expect
      .poll(() => rows.some((row) => row.id === teamId && check(row)), { timeout: 5_000 })
      .toBe(true);
    return rows.filter((row) => row.id === teamId && check(row)).at(-1)!;
  };
  const agentLog = async (teamId: number) => {
    const res = await callAs(server.app, judge, `/api/contestLog?teams_id=${teamId}`);
    expect(res.status).toBe(200);
    return (res.body.data.rows as ContestLogRow[]).filter((row) => row.kind === 'agente');
  };

  beforeAll(async () => {
    server = await startTestServer({ agentOfflineAfterMs: OFFLINE_AFTER_MS });
    ({ admin, judge } = await signInStaff(server, 'alerta'));
    contestId = (await createContest(server.orm)).id;
    screen = await connectSocket(server.url, judge);
    screen.on('board.frame', (frame) => rows.push(...decodeBoardFrame(frame).teams));
  });

  afterAll(async () => {
    screen?.close();
    await server?.close();
  });

  it('alerts the boards and logs «sin señal» when an agent goes quiet, and logs its return', async () => {
    const team = await agentTeam(server, admin, { contestId, name: 'Los Silenciosos' });
    await beat(team.key);
    const lastBeat = Date.now();
    await pushed(team.id, (row) => row.agent_online);

    const silent = await pushed(team.id, (row) => row.agent_alert === 'sin_senal');
    expect(silent.agent_online).toBe(false);
    const snapshot = await callAs(server.app, judge, '/api/teamAttempts');
    expect(snapshot.body.basico.find((row: BoardTeam) => row.id === team.id)).toMatchObject({
      agent_online: false,
      agent_alert: 'sin_senal',
    });
    const [quiet] = await agentLog(team.id);
    expect(quiet).toMatchObject({ agent_event: 'sin_senal', team: { id: team.id }, silence_ms: null });
    expect(Math.abs(Date.parse(quiet!.last_seen!) - lastBeat)).toBeLessThan(1_000);

    await new Promise((resolve) => setTimeout(resolve, 300));
    await beat(team.key);
    const back = await pushed(team.id, (row) => row.agent_online && row.version > silent.version);
    expect(back.agent_alert).toBeNull();
    const log = await agentLog(team.id);
    expect(log.map((row) => row.agent_event)).toEqual(['en_linea', 'sin_senal']);
    expect(log[0]!.silence_ms).toBeGreaterThanOrEqual(OFFLINE_AFTER_MS);
  });

  it('logs «detenido» for an agent stopped the documented way, and «sin reanudar» (never «sin señal») once the window passes', async () => {
    const team = await agentTeam(server, admin, {
      contestId,
      name: 'Los Ordenados',
      levelsId: LEVELS.intermedio,
    });
    await beat(team.key);
    await pushed(team.id, (row) => row.agent_online);
    expect((await callAs(server.app, team.key, '/api/agent/stopped', {})).status).toBe(200);
    await pushed(team.id, (row) => row.agent_alert === 'detenido');
    // An agent that names no machine: the team-level rule, the same alarm as a machine's.
    const alarm = await pushed(team.id, (row) => row.agent_alert === 'sin_reanudar');
    expect(alarm.agent_online).toBe(false);
    expect((await agentLog(team.id)).map((row) => row.agent_event)).toEqual(['sin_reanudar', 'detenido']);
    expect(rows.some((row) => row.id === team.id && row.agent_alert === 'sin_senal')).toBe(false);

    await beat(team.key);
    await pushed(team.id, (row) => row.agent_online && row.version > alarm.version);
    expect((await agentLog(team.id))[0]?.agent_event).toBe('reanudado');
  });

  it('raises nothing for an agent of a contest that is not the active one, silent or stopped', async () => {
    const other = await createContest(server.orm, '2026-05-02', { active: false });
    const team = await createTeam(server.orm, other.id, LEVELS.basico, 'Equipo de 2026A');
    const key = await generateAgentKey(server.app, admin, team.id);
    await beat(key);
    const offline = async () =>
      (
        await server.orm.em
          .fork()
          .execute<Array<{ agent_online: number; agent_alert: string | null }>>(
            'select agent_online, agent_alert from teams where id = ?',
            [team.id],
          )
      )[0]!;
    await expect.poll(async () => (await offline()).agent_online, { timeout: 5_000 }).toBe(0);
    expect((await offline()).agent_alert).toBeNull();
    const events = await server.orm.em
      .fork()
      .execute<Array<{ n: number }>>('select count(*) as n from agent_events where teams_id = ?', [team.id]);
    expect(Number(events[0]!.n)).toBe(0);

    // A machine of that contest stopped the documented way stays a harmless stop past the window.
    const machine = { hostname: 'lab-2026a', os: 'linux 6.1.0', version: '1.5.0' };
    expect((await callAs(server.app, key, '/api/agent/heartbeat', machine)).status).toBe(200);
    expect((await callAs(server.app, key, '/api/agent/stopped', { hostname: 'lab-2026a' })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, OFFLINE_AFTER_MS * 2));
    const [stopped] = await server.orm.em
      .fork()
      .execute<Array<{ alert: string | null }>>('select alert from agent_machines where teams_id = ?', [
        team.id,
      ]);
    expect(stopped?.alert).toBe('detenido');
    expect((await offline()).agent_alert).toBeNull();
    expect(rows.some((row) => row.id === team.id && row.agent_alert !== null)).toBe(false);
  });
});
