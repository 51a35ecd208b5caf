import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { appendFile, copyFile, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AttemptLogRow } from '@concurso/shared';
import { agentTeam, startContest, startTestServer, type TestServer } from '@concurso/testkit';
import {
  blockedBinary,
  cleanUp,
  renamedCopy,
  spawnProcess,
  tempDir,
  uniqueName,
  within,
} from './helpers/processes.js';
import { WinePrefix, wineInstalled } from './helpers/wine.js';
import { AGENT_VERSION, agentExecutable, buildAgentInto, sharedAgentBuild } from './helpers/agent-build.js';
import { TARGETS, nodeBinary } from '../scripts/node-binaries.js';

const run = promisify(execFile);

/** Windows' official node.exe, as the build keeps it (scripts/node-binaries.ts): a Windows program to block. */
const windowsNode = () => nodeBinary(TARGETS[1]);

const sha256 = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

/**
 * `npm run agent:build` makes the agent one file per platform, with no Node.js needed on the
 * lab machine. The Linux executable runs here natively as a lab machine runs it: from its key file, it
 * reads its policy from a real server, beats, ends a program the test made and blocked (reported once)
 * and, once the server learned that program's fingerprint, a renamed copy of it. It lists every process
 * of this machine, so it only ever blocks names this test made up.
 */
describe('the agent as one executable', () => {
  let out: string;
  let server: TestServer;
  let agent: ChildProcess | undefined;
  let adminToken: string;
  let contestId: number;

  beforeAll(async () => {
    [server, out] = await Promise.all([startTestServer(), sharedAgentBuild(180_000)]);
    ({ adminToken, contestId } = await startContest(server, 'admin_agent_executable'));
  }, 240_000);

  const get = async <T>(url: string): Promise<T> =>
    (
      (await (
        await fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${adminToken}` } })
      ).json()) as {
        data: T;
      }
    ).data;
  const labMachines = () =>
    get<{ machines: Array<{ team: { id: number }; os: string; version: string }> }>('/api/labMachines');
  /** Team `teamId`'s machines on the lab board once its agent has beaten (or none after `ms`). */
  async function machinesOf(teamId: number, ms: number) {
    const deadline = Date.now() + ms;
    for (;;) {
      const machines = (await labMachines()).machines.filter((machine) => machine.team.id === teamId);
      if (machines.length > 0 || Date.now() > deadline) return machines;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const attemptsLog = (teamId: number) => get<AttemptLogRow[]>(`/api/teamAttemptsLog/${teamId}`);

  afterAll(async () => {
    agent?.kill('SIGKILL');
    await cleanUp();
    await server?.close();
  }, 60_000);

  it('builds the Linux and Windows executables, the same bytes from the same commit', async () => {
    const files = (await readdir(out)).sort();
    expect(files).toEqual([
      `concurso-agent-${AGENT_VERSION}-linux-x64`,
      `concurso-agent-${AGENT_VERSION}-win-x64.exe`,
    ]);
    const linux = path.join(out, files[0]!);
    const windows = path.join(out, files[1]!);
    // Windows' PE and Linux's ELF, each the official Node binary with the agent inside.
    expect((await readFile(windows)).subarray(0, 2).toString('latin1')).toBe('MZ');
    expect((await readFile(linux)).subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    const again = await tempDir('agent-build-');
    await buildAgentInto(again, 180_000);
    expect(await sha256(path.join(again, files[0]!))).toBe(await sha256(linux));
    expect(await sha256(path.join(again, files[1]!))).toBe(await sha256(windows));
    const { stdout } = await run(linux, ['--version']);
    expect(stdout.trim()).toMatch(
      new RegExp(
        `^${AGENT_VERSION.replaceAll('.', '\\.')} \\(linux-x64, Node 20\\.\\d+\\.\\d+, [0-9a-f]{7,}|sin-git\\)$`,
      ),
    );
    console.log(
      `ejecutables: linux-x64 ${((await stat(linux)).size / 1e6).toFixed(1)} MB, win-x64 ${((await stat(windows)).size / 1e6).toFixed(1)} MB`,
    );
  }, 240_000);

  it('runs on Linux from its key file: beats, ends a blocked program once, then a renamed copy', async () => {
    const blocked = uniqueName('forbidden');
    const team = await agentTeam(server, adminToken, {
      contestId,
      name: 'Los Ejecutables',
      blocked: [blocked],
    });
    const dataDir = await tempDir('agent-exe-');
    const keyFile = path.join(dataDir, 'clave');
    await writeFile(keyFile, `${team.key}\n`, { mode: 0o600 });
    const lines: string[] = [];
    const started = Date.now();
    agent = spawn(
      agentExecutable(out, 'linux-x64'),
      ['--server', server.url, '--key-file', keyFile, '--data-dir', dataDir, '--poll-ms', '200'],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', HOME: dataDir } },
    );
    agent.stdout!.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n')));
    agent.stderr!.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n')));

    // Its heartbeat puts its machine on the lab board.
    const machines = await machinesOf(team.id, 15_000);
    expect(machines, lines.join('\n')).toEqual([
      expect.objectContaining({ version: AGENT_VERSION, os: expect.stringMatching(/^linux /) }),
    ]);
    console.log(`ejecutable de Linux: primer latido ${Date.now() - started} ms después de arrancar`);

    const original = await blockedBinary(blocked);
    const first = await spawnProcess(original, ['300']);
    await within(10_000, first.exited, 'el ejecutable termina el programa bloqueado');
    // The server learns its fingerprint from that attempt and pushes it: a renamed copy ends too.
    const learned = Date.now() + 15_000;
    let copyEnded = false;
    while (!copyEnded && Date.now() < learned) {
      const copy = await spawnProcess(await renamedCopy(original, uniqueName('other')), ['300']);
      copyEnded = await within(2_000, copy.exited, '').then(
        () => true,
        () => false,
      );
      copy.child.kill('SIGKILL');
    }
    expect(copyEnded, lines.join('\n')).toBe(true);

    const rows = () => attemptsLog(team.id);
    const reported = Date.now() + 10_000;
    while ((await rows()).length < 2 && Date.now() < reported) await new Promise((r) => setTimeout(r, 100));
    const log = await rows();
    expect(log.filter((row) => row.executable === null)).toEqual([
      expect.objectContaining({ process: blocked, killed: true }),
    ]);
    expect(log.filter((row) => row.executable !== null)).toEqual([
      expect.objectContaining({ process: blocked, killed: true }),
    ]);
    agent.kill('SIGTERM');
    await within(10_000, new Promise((resolve) => agent!.once('exit', resolve)), 'el ejecutable se detiene');
    agent = undefined;
  }, 90_000);

  // Windows through Debian's Wine: scripts/test-env.sh installs it wherever Debian packages can be
  // installed; only where they cannot does this say so loudly instead of running.
  if (!wineInstalled()) {
    console.warn(
      '\n*** SIN WINE: el ejecutable de Windows del agente NO se prueba aquí (instale wine64 de Debian: scripts/test-env.sh) ***\n',
    );
  }
  it.runIf(wineInstalled())(
    'runs on Windows (Wine) from its key file: beats as win32, ends a blocked program once, then a renamed copy',
    async () => {
      const prefix = new WinePrefix(await tempDir('agent-wine-'));
      try {
        await prefix.init();
        const blocked = uniqueName('forbidden');
        const team = await agentTeam(server, adminToken, {
          contestId,
          name: 'Los de Windows',
          blocked: [blocked],
        });
        const exe = agentExecutable(out, 'win-x64');
        const started = Date.now();
        const { agent: agentProcess, dataDir } = await prefix.startAgent(exe, server.url, team.key);
        const machines = await machinesOf(team.id, 60_000);
        expect(machines, await agentProcess.output()).toEqual([
          expect.objectContaining({ version: AGENT_VERSION, os: expect.stringMatching(/^win32 10\./) }),
        ]);
        console.log(
          `ejecutable de Windows (Wine): primer latido ${Date.now() - started} ms después de arrancar`,
        );

        // A Windows program named like the blocked one: a copy of Windows' node.exe with random bytes
        // after it (it still runs; its fingerprint is this test's alone), waiting.
        const program = path.join(dataDir, `${blocked}.exe`);
        await copyFile(windowsNode(), program);
        await appendFile(program, randomBytes(16));
        const idle = ['-e', 'setInterval(() => {}, 1000)'];
        const first = prefix.spawn(program, idle, 'program');
        await within(30_000, first.exited, 'el ejecutable de Windows termina el programa bloqueado');

        // Its path was listed (proclist.exe), so the attempt carried its fingerprint: once the server
        // pushes it back, a renamed copy ends too, reported under the blocked name.
        const learned = Date.now() + 30_000;
        let copyEnded = false;
        while (!copyEnded && Date.now() < learned) {
          const disguise = path.join(dataDir, `${uniqueName('notas')}.exe`);
          await copyFile(program, disguise);
          const copy = prefix.spawn(disguise, idle, 'copy');
          copyEnded = await within(3_000, copy.exited, '').then(
            () => true,
            () => false,
          );
          copy.child.kill('SIGKILL');
        }
        expect(copyEnded, await agentProcess.output()).toBe(true);

        const reported = Date.now() + 15_000;
        let log: AttemptLogRow[] = [];
        while (Date.now() < reported) {
          log = await attemptsLog(team.id);
          if (log.length >= 2) break;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect(
          log.filter((row) => row.executable === null),
          await agentProcess.output(),
        ).toEqual([expect.objectContaining({ process: blocked, killed: true })]);
        expect(log.filter((row) => row.executable !== null)).toEqual([
          expect.objectContaining({
            process: blocked,
            killed: true,
            executable: expect.stringMatching(/^notas-.*\.exe$/),
          }),
        ]);
      } finally {
        await prefix.kill();
      }
    },
    180_000,
  );
});
