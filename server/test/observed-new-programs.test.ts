import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import {
  NEW_PROGRAM_AFTER_MS,
  observedProcessesSchema,
  type AgentObservedProcess,
  type BoardTeam,
} from '@concurso/shared';
import {
  agentTeam,
  callAs,
  connectSocket,
  createContest,
  nextRow,
  observedEntry,
  signInStaff,
  startTestServer,
  type BoardSocket,
  type TestServer,
} from '@concurso/testkit';

/** A SHA-256 as the agent sends it, different for each `seed`. */
const sha = (seed: string) => createHash('sha256').update(seed).digest('hex');

/**
 * The contest's first observed start, 40 minutes ago in whole seconds (DATETIME keeps no fraction), and
 * `at(n)` n minutes after it: past the first minutes (`NEW_PROGRAM_AFTER_MS`, 10 minutes) from 10 on,
 * and a start at 26 or later is within the board's recent window (15 minutes) now.
 */
const start = Math.floor(Date.now() / 1000) * 1000 - 40 * 60 * 1000;
const at = (n: number) => new Date(start + n * 60 * 1000);

/**
 * «Programa nuevo» on the server (observed module README): after the contest's first minutes, a program
 * no other team ran (by name as the agent compares names, nor by SHA-256) is «nuevo» on
 * /procesosObservados with its machine and path, and the board marks its team while its latest start
 * is recent; a second team running it takes both away.
 */
describe('programa nuevo', () => {
  let server: TestServer;
  let judge: string;
  let screen: BoardSocket;
  let ana: { id: number; key: string };
  let beto: { id: number; key: string };
  let carla: { id: number; key: string };

  const report = async (key: string, observed: AgentObservedProcess[], hostname?: string): Promise<void> => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/agent/observed',
      headers: { authorization: `Bearer ${key}` },
      payload: { observed, ...(hostname ? { hostname } : {}) },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const rowOf = async (name: string) => {
    const res = await callAs(server.app, judge, `/api/observedProcesses?q=${encodeURIComponent(name)}`);
    expect(res.status).toBe(200);
    const rows = observedProcessesSchema.parse(res.body.data).rows.filter((row) => row.name === name);
    expect(rows, name).toHaveLength(1);
    return rows[0]!;
  };
  const markOf = async (teamId: number) => {
    const res = await callAs(server.app, judge, '/api/teamAttempts');
    const teams = [...res.body.basico, ...res.body.intermedio, ...res.body.avanzado] as BoardTeam[];
    return teams.find((team) => team.id === teamId)?.new_program ?? null;
  };

  beforeAll(async () => {
    server = await startTestServer({ logLevel: 'error' });
    let admin: string;
    ({ admin, judge } = await signInStaff(server, 'nuevos'));
    const contestId = (await createContest(server.orm)).id;
    ana = await agentTeam(server, admin, { contestId, name: 'Ana Lógica' });
    beto = await agentTeam(server, admin, { contestId, name: 'Beto y los Bits' });
    carla = await agentTeam(server, admin, { contestId, name: 'Carla Compila' });
    screen = await connectSocket(server.url, judge);
    // The first minutes: every team opens its editor and browser.
    await report(ana.key, [observedEntry('code', sha('code'), { firstSeen: at(0) })]);
    await report(beto.key, [observedEntry('code', sha('code'), { firstSeen: at(1) })]);
    await report(carla.key, [observedEntry('chrome', sha('chrome'), { firstSeen: at(2) })]);
  });
  afterAll(async () => {
    screen?.disconnect();
    await server?.close();
  });

  it('marks nothing first run in the contest’s first minutes, even by one team only', async () => {
    expect(NEW_PROGRAM_AFTER_MS).toBe(10 * 60 * 1000);
    await report(ana.key, [observedEntry('antes-de-tiempo', sha('antes'), { firstSeen: at(9) })], 'lab-01');
    // Run again later by the same team: still first run in the first minutes.
    await report(ana.key, [observedEntry('antes-de-tiempo', sha('antes'), { firstSeen: at(30) })], 'lab-01');
    expect(await rowOf('antes-de-tiempo')).toMatchObject({ machines: 1, is_new: false, hostname: 'lab-01' });
    expect(await rowOf('code')).toMatchObject({ machines: 2, is_new: false, hostname: null, path: null });
    expect(await markOf(ana.id)).toBeNull();
  });

  it('after them, a program only one team ran is «nuevo» with its machine and path, and its team is marked on the board', async () => {
    const pushed = nextRow(screen, (row) => row.id === ana.id && row.new_program?.name === 'rara-tool');
    await report(
      ana.key,
      [
        {
          ...observedEntry('rara-tool', sha('rara-1'), { firstSeen: at(27) }),
          path: '/home/ana/Descargas/rara-tool',
        },
      ],
      'lab-07',
    );
    expect(await rowOf('rara-tool')).toMatchObject({
      machines: 1,
      teams: ['Ana Lógica'],
      is_new: true,
      hostname: 'lab-07',
      path: '/home/ana/Descargas/rara-tool',
    });
    expect((await pushed).new_program).toEqual({ name: 'rara-tool', at: at(27).getTime() });
    expect(await markOf(ana.id)).toEqual({ name: 'rara-tool', at: at(27).getTime() });
  });

  it('a renamed copy whose SHA-256 another team ran is not «nuevo»; a new name with new bytes is', async () => {
    await report(beto.key, [
      observedEntry('navegador-portatil', sha('chrome'), { firstSeen: at(28) }),
      observedEntry('otra-cosa', sha('otra'), { firstSeen: at(29) }),
    ]);
    expect(await rowOf('navegador-portatil')).toMatchObject({ machines: 1, is_new: false });
    expect(await rowOf('otra-cosa')).toMatchObject({ machines: 1, is_new: true });
    expect(await markOf(beto.id)).toEqual({ name: 'otra-cosa', at: at(29).getTime() });
  });

  it('the same program run by a second team (same name, other bytes) stops being «nuevo» and the board mark goes', async () => {
    const cleared = nextRow(screen, (row) => row.id === ana.id && !row.new_program);
    // Another build of it, with the name the agent compares ('.exe' and case aside).
    await report(carla.key, [observedEntry('Rara-Tool.exe', sha('rara-2'), { firstSeen: at(30) })], 'lab-12');
    expect((await cleared).new_program ?? null).toBeNull();
    expect(await rowOf('rara-tool')).toMatchObject({ is_new: false });
    expect(await rowOf('Rara-Tool.exe')).toMatchObject({ is_new: false, hostname: 'lab-12' });
    expect(await markOf(ana.id)).toBeNull();
    expect(await markOf(carla.id)).toBeNull();
    // Beto's mark is another program: it stays.
    expect(await markOf(beto.id)).toEqual({ name: 'otra-cosa', at: at(29).getTime() });
  });

  it('a program new long ago leaves no mark on the board, while the list still says «nuevo»', async () => {
    await report(carla.key, [observedEntry('vieja-rara', sha('vieja'), { firstSeen: at(11) })]);
    expect(await rowOf('vieja-rara')).toMatchObject({ is_new: true });
    expect(await markOf(carla.id)).toBeNull();
  });
});
