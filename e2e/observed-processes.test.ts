import { afterAll, describe, expect, it } from 'vitest';
import { USER_TYPES, type ContestLog } from '@concurso/shared';
import { agentTeam, callAs, createUser, startContest, eventually } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { startAgent, type AgentHandle } from '../agent/src/agent.js';
import {
  blockedBinary,
  cleanUp,
  spawnedByTest,
  renamedCopy,
  running,
  spawnProcess,
  tempDir,
  uniqueName,
  within,
  type Spawned,
} from '../agent/test/helpers/processes.js';
import { openSignedIn } from './pages/login-page.js';
import { ObservedPage } from './pages/observed-page.js';
import { HistoryPage } from './pages/history-page.js';
import { AGENT_STEP_MS, SCREEN_MS } from './pages/loaded-machine.js';

/**
 * Renamed programs and what ran in the lab (docs/design.md section 6), with two real agents (one per team:
 * two "machines", both watching this test's own children) against the real server and Chromium: a renamed
 * copy of a blocked program is ended and reported under the blocked name; /procesosObservados lists a program
 * started on both machines once, '2 máquinas'; an administrator's 'Bloquear' there makes the agents end it.
 */
describe('renamed programs and what ran in the lab', () => {
  const bed = useWebTestBed();
  const agents: AgentHandle[] = [];
  /** The agents' counters and fingerprints, for a failure's message: how far each one got. */
  const agentsState = () =>
    agents
      .map((agent, i) => {
        const { stats } = agent;
        const seen = {
          sweeps: stats.sweeps,
          killed: stats.killed,
          failed: stats.failed,
          queued: stats.queued,
          acknowledged: stats.acknowledged,
          pending: stats.pending,
          observedPending: stats.observedPending,
          online: stats.online,
          pushConnected: stats.pushConnected,
          lastError: stats.lastError,
          huellas: agent.config.fingerprints.length,
        };
        return `agente ${i + 1}: ${JSON.stringify(seen)}`;
      })
      .join('; ');
  /** Waits for `spawned` to exit within `AGENT_STEP_MS`; a timeout names `what` and the agents' counters. */
  const ended = async (spawned: Spawned, what: string) => {
    try {
      await within(AGENT_STEP_MS, spawned.exited, what);
    } catch (err) {
      throw new Error(`${(err as Error).message}; ${agentsState()}`);
    }
  };

  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.stop()));
    await cleanUp();
    // The two agents ran in this process, on its keep-alive pool: now and then a connection of theirs
    // outlived them, and the server's close (socket.io closes the HTTP server) waited for its
    // keep-alive timeout (72 s), past the close hooks' 10 s. The agents are gone: cut what is left.
    bed.server.app.server.closeAllConnections();
  });

  it('catches a renamed copy, lists what ran on two machines and blocks it from the screen', async () => {
    const { adminToken, contestId } = await startContest(bed.server, 'admin_lab');
    await createUser(bed.server.orm, USER_TYPES.judge, 'juez_lab', 'clave-juez');
    const blocked = uniqueName('juego');
    const one = await agentTeam(bed.server, adminToken, {
      contestId,
      name: 'Máquina Uno',
      blocked: [blocked],
    });
    const two = await agentTeam(bed.server, adminToken, { contestId, name: 'Máquina Dos' });
    for (const team of [one, two]) {
      agents.push(
        await startAgent({
          server: bed.server.url,
          key: team.key,
          dataDir: await tempDir('lab-agent-'),
          // The programs this test starts, not the browser (`spawnedByTest` says what that cost).
          lister: spawnedByTest(),
          pollMs: 200,
          // The push channel brings each change of the policy (a fingerprint learned, a 'Bloquear');
          // this read over HTTP is only its fallback.
          configRefreshMs: 2_000,
          observedReportMs: 300,
          log: () => undefined,
        }),
      );
    }
    // Both machines scanning and on the push channel before the first program starts: an attempt
    // carries its program's fingerprint only when reading it takes under 2 s (agent/src/sweeper.ts), and
    // an agent's first seconds (its config, its channel, the server's attempts thread loading) are the
    // busiest.
    expect(
      await eventually(
        () => agents.every((agent) => agent.stats.pushConnected && agent.stats.sweeps > 0),
        AGENT_STEP_MS,
      ),
      `los dos agentes revisan y tienen su canal; ${agentsState()}`,
    ).toBe(true);
    // The blocked program, ended by its name: its fingerprint is learned and reaches the config of the
    // team whose agent ended it (both machines watch the same processes: either may be first;
    // the claim is that team's until an admin confirms it).
    const game = await blockedBinary(blocked);
    const first = await spawnProcess(game, ['300']);
    await ended(first, 'el agente termina el programa bloqueado');
    const taught = () => agents.find((agent) => agent.config.fingerprints.length > 0);
    expect(
      await eventually(() => taught() !== undefined, AGENT_STEP_MS),
      `la huella aprendida llega a un agente; ${agentsState()}`,
    ).toBe(true);
    expect(taught()!.config.fingerprints.map((print) => print.process)).toEqual([blocked]);

    // The same file renamed: ended, and reported under the blocked name with the name it ran as.
    const disguise = uniqueName('notas');
    const renamed = await spawnProcess(await renamedCopy(game, disguise), ['300']);
    await ended(renamed, 'el agente termina la copia renombrada');
    // Both machines watch the same processes, so whichever agent ends it first reports it.
    const renamedAttempts = async () =>
      (
        (await (
          await fetch(`${bed.server.url}/api/contestLog?process=${blocked}`, {
            headers: { authorization: `Bearer ${adminToken}` },
          })
        ).json()) as { data: ContestLog }
      ).data.rows.filter((row) => row.executable !== null);
    expect(
      await eventually(async () => (await renamedAttempts()).length > 0, AGENT_STEP_MS),
      `el intento de la copia renombrada llega a la bitácora; ${agentsState()}`,
    ).toBe(true);
    const [caught] = await renamedAttempts();
    expect(caught).toMatchObject({ process: blocked, executable: disguise, killed: true });
    const caughtBy = caught!.team!.id;
    // One team's fingerprint applies to its own machines; the admin confirms it for all
    // (Procesos › Huellas; that screen's own journey is e2e/fingerprints.test.ts).
    const processes = (await callAs(bed.server.app, adminToken, '/api/getProcesses')).body.data as Array<{
      id: number;
      name: string;
    }>;
    const processId = processes.find((row) => row.name === blocked)!.id;
    const claims = await callAs(bed.server.app, adminToken, `/api/processFingerprints/${processId}`);
    const [claim] = claims.body.data.rows as Array<{ id: number }>;
    expect(
      (await callAs(bed.server.app, adminToken, `/api/confirmFingerprint/${claim!.id}`, {})).status,
    ).toBe(200);

    // Historial names it so on a judge's board.
    const judge = await openSignedIn(bed.browser, bed.server.url, 'juez_lab', 'clave-juez', '/homeJuez', {
      timeoutMs: SCREEN_MS,
    });
    const history = new HistoryPage(judge.page);
    await history.openTeamHistory(caughtBy);
    await history
      .attemptRows()
      .filter({ hasText: `${blocked}, renombrado como ${disguise}` })
      .waitFor();
    await history.closeDialog();

    // A program nobody blocked, started on both machines: one row, '2 máquinas', for the judge too.
    const odd = uniqueName('raro');
    const oddFile = await blockedBinary(odd);
    const oddRun = await spawnProcess(oddFile, ['300']);
    const judgeScreen = new ObservedPage(judge.page, bed.server.url);
    await judgeScreen.open();
    // The server searches; a team's name finds what its machine ran, the program's own too.
    // Both agents report it (every 300 ms while something waits), then the screen's next refetch (5 s)
    // shows it: the server's answer first, so a failure says which side fell behind.
    const machinesOf = async (name: string) => {
      const answer = await callAs(bed.server.app, adminToken, `/api/observedProcesses?q=${name}`);
      const rows = answer.body.data.rows as Array<{ name: string; machines: number }>;
      return rows.find((row) => row.name === name)?.machines ?? 0;
    };
    expect(
      await eventually(async () => (await machinesOf(odd)) === 2, AGENT_STEP_MS),
      `el servidor lista ${odd} en 2 máquinas (lista ${await machinesOf(odd)}); ${agentsState()}`,
    ).toBe(true);
    await judgeScreen.search(odd);
    const judgeRow = judgeScreen.row(odd);
    await judgeRow.filter({ hasText: '2 máquinas' }).waitFor({ timeout: SCREEN_MS });
    // PROGRAMA, MÁQUINAS, EQUIPOS…: a machine is named by its team only.
    expect((await judgeRow.getByRole('cell').allTextContents())[2]).toBe('Máquina Dos, Máquina Uno');
    expect(await judgeRow.getByRole('button', { name: 'Bloquear' }).count()).toBe(0);
    // The renamed copy is listed too, as what it is.
    await judgeScreen.search(disguise);
    await judgeScreen
      .row(disguise)
      .filter({ hasText: `Bloqueado como ${blocked}` })
      .waitFor();
    expect(running(oddRun)).toBe(true);

    // The administrator blocks it from the screen: the agents end the running one at their next config.
    const admin = await openSignedIn(bed.browser, bed.server.url, 'admin_lab', 'clave-admin', '/home', {
      timeoutMs: SCREEN_MS,
    });
    const adminScreen = new ObservedPage(admin.page, bed.server.url);
    await adminScreen.open();
    await adminScreen.search(odd);
    await adminScreen.block(odd, 'Máquina Dos, Máquina Uno');
    await adminScreen.row(odd).filter({ hasText: 'Bloqueado' }).waitFor();
    await ended(oddRun, 'los agentes terminan el programa bloqueado desde la pantalla');
    // A renamed copy of it is caught by the fingerprint the block carried.
    const oddRenamed = await spawnProcess(await renamedCopy(oddFile, uniqueName('otro')), ['300']);
    await ended(oddRenamed, 'los agentes terminan la copia renombrada del programa');

    // «Programa nuevo»: past the contest's first minutes (its first observed start put 30 minutes back),
    // a program only one team ran is «Nuevo» with its machine and path, and the board marks that team.
    const report = (observed: object[]) =>
      fetch(`${bed.server.url}/api/agent/observed`, {
        method: 'POST',
        headers: { authorization: `Bearer ${two.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ observed, hostname: 'lab-21' }),
      }).then((res) => expect(res.status).toBe(200));
    const entry = (name: string, seen: Date, path?: string) => ({
      name,
      sha256: null,
      first_seen: seen.toISOString(),
      last_seen: seen.toISOString(),
      starts: 1,
      ...(path ? { path } : {}),
    });
    await report([entry(uniqueName('previo'), new Date(Date.now() - 30 * 60_000))]);
    const unknown = uniqueName('herramienta');
    await report([entry(unknown, new Date(), `/home/equipo/Descargas/${unknown}`)]);
    await judgeScreen.search(unknown);
    await judgeScreen
      .row(unknown)
      .filter({ hasText: 'Nuevo' })
      .filter({ hasText: `lab-21 · /home/equipo/Descargas/${unknown}` })
      .waitFor();
    await judge.page.goto(`${bed.server.url}/homeJuez`);
    await judge.page
      .getByTestId(`team-row-${two.id}`)
      .getByTestId('new-program')
      .and(judge.page.getByTitle(`Programa nuevo: ${unknown}`))
      .waitFor();

    await judge.context.close();
    await admin.context.close();
    // Two agents' starts, four programs ended, two signed-in screens: 70 s at a load average of 20, 157 s before
    // the agents stopped listing the browser; the steps have their own deadlines, this is the journey's.
  }, 300_000);
});
