import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardTeam, ContestLogRow } from '@concurso/shared';
import { agentTeam, callAs, startContest, startTestServer, type TestServer } from '@concurso/testkit';
import { agentCliBundle } from './helpers/agent-cli.js';
import { cleanUp, tempDir } from './helpers/processes.js';

/**
 * The tamper alert (docs/design.md section 6a, the lab board) with the real agent as the lab runs it (the
 * packaged CLI, helpers/agent-cli.ts, its own process, watching the whole machine with an empty blocked
 * set: it ends nothing): killed without notice (SIGKILL) during the active contest, the boards show
 * «sin señal» and the log says so; started again, the log says it is back; stopped the documented way
 * (SIGTERM, as `systemctl stop` does), «detenido», and «detenido sin reanudar» once the window passes
 * without it back.
 */
describe('the real agent killed, restarted and stopped', () => {
  let server: TestServer;
  let adminToken: string;
  let team: { id: number; key: string };
  let keyFile: string;
  let dataDir: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    // Heartbeats then come every 500 ms (a third of the window).
    server = await startTestServer({ agentOfflineAfterMs: 1_500 });
    let contestId: number;
    ({ adminToken, contestId } = await startContest(server, 'admin_tamper'));
    team = await agentTeam(server, adminToken, { contestId, name: 'Los Traviesos' });
    keyFile = path.join(await tempDir('agent-tamper-key-'), 'concurso-agent.key');
    await writeFile(keyFile, `${team.key}\n`);
    await chmod(keyFile, 0o600);
    dataDir = await tempDir('agent-tamper-data-');
  });

  afterAll(async () => {
    children.forEach((child) => child.kill('SIGKILL'));
    await cleanUp();
    server?.app.server.closeAllConnections();
    await server?.close();
  }, 60_000);

  const startCli = async () => {
    const child = spawn(
      process.execPath,
      [await agentCliBundle(), '--server', server.url, '--key-file', keyFile, '--data-dir', dataDir],
      {
        stdio: 'ignore',
      },
    );
    children.push(child);
    return child;
  };
  const row = async (): Promise<BoardTeam> => {
    const res = await callAs(server.app, adminToken, '/api/teamAttempts');
    return (res.body.basico as BoardTeam[]).find((t) => t.id === team.id)!;
  };
  const events = async () => {
    const res = await callAs(server.app, adminToken, `/api/contestLog?teams_id=${team.id}`);
    return (res.body.data.rows as ContestLogRow[])
      .filter((r) => r.kind === 'agente')
      .map((r) => r.agent_event);
  };
  const exited = (child: ChildProcess) => new Promise<void>((resolve) => child.once('exit', () => resolve()));

  it('shows «sin señal» after a SIGKILL, «de nuevo en línea» after a restart, «detenido» then «sin reanudar» after a SIGTERM', async () => {
    const first = await startCli();
    await expect.poll(async () => (await row()).agent_online, { timeout: 15_000 }).toBe(true);

    const killed = exited(first);
    first.kill('SIGKILL');
    await killed;
    await expect.poll(async () => (await row()).agent_alert, { timeout: 10_000 }).toBe('sin_senal');
    expect(await events()).toEqual(['sin_senal']);

    const second = await startCli();
    await expect.poll(async () => (await row()).agent_online, { timeout: 15_000 }).toBe(true);
    await expect.poll(events, { timeout: 5_000 }).toEqual(['en_linea', 'sin_senal']);

    const stopped = exited(second);
    second.kill('SIGTERM');
    await stopped;
    // A stop soon after the agent came back is a flap: the server holds it until it has lasted two
    // presence periods (agent.service.ts), so the log gets it a moment later, once. Not resumed within
    // the window of the active contest, it becomes the alarm «detenido sin reanudar».
    await expect.poll(async () => (await row()).agent_alert, { timeout: 10_000 }).toBe('sin_reanudar');
    await expect
      .poll(events, { timeout: 5_000 })
      .toEqual(['sin_reanudar', 'detenido', 'en_linea', 'sin_senal']);
  }, 60_000);
});
