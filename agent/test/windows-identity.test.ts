import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFile, copyFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AttemptLogRow } from '@concurso/shared';
import { agentTeam, startContest, startTestServer, type TestServer } from '@concurso/testkit';
import { cleanUp, tempDir, uniqueName, within } from './helpers/processes.js';
import { WinePrefix, wineInstalled, type WineProcess } from './helpers/wine.js';
import { agentExecutable, sharedAgentBuild } from './helpers/agent-build.js';
import { mingwInstalled, windowsProgram } from './helpers/windows-program.js';
import { TARGETS, nodeBinary } from '../scripts/node-binaries.js';

if (!wineInstalled() || !mingwInstalled()) {
  console.warn(
    '\n*** SIN WINE O MINGW-W64: la identidad de los programas de Windows NO se prueba aquí (scripts/test-env.sh los instala) ***\n',
  );
}

/**
 * The agent's Windows executable (`npm run agent:build`) under Debian's Wine, against a real server:
 * a Windows program is what it is, whatever its file is called (agent/src/README.md "Version
 * resource", "Similar files"). The blocked programs are compiled here (MinGW-w64) with names of the
 * test's own and random bytes of their own; the Wine prefix is the test's own, so the agent, which
 * lists every process of the prefix, never sees anything else.
 */
describe.runIf(wineInstalled() && mingwInstalled())(
  'the Windows agent knows a program by what it is (Wine)',
  () => {
    let server: TestServer;
    let prefix: WinePrefix;
    let agent: WineProcess | undefined;
    let adminToken: string;
    let contestId: number;
    let exe: string;
    const started: ChildProcess[] = [];

    beforeAll(async () => {
      prefix = new WinePrefix(await tempDir('agent-wine-'));
      let out: string;
      [server, out] = await Promise.all([startTestServer(), sharedAgentBuild(180_000), prefix.init()]);
      exe = agentExecutable(out, 'win-x64');
      ({ adminToken, contestId } = await startContest(server, 'admin_windows_identity'));
    }, 240_000);

    afterAll(async () => {
      for (const child of started) child.kill('SIGKILL');
      await prefix?.kill();
      await cleanUp();
      await server?.close();
    }, 60_000);

    const get = async <T>(url: string): Promise<T> =>
      (
        (await (
          await fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${adminToken}` } })
        ).json()) as { data: T }
      ).data;

    /** The team's attempts once there are at least `count` (or what there is after 15 s). */
    async function attemptsOf(teamId: number, count: number): Promise<AttemptLogRow[]> {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const rows = await get<AttemptLogRow[]>(`/api/teamAttemptsLog/${teamId}`);
        if (rows.length >= count || Date.now() > deadline) return rows;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }

    /** Starts the agent for a new team blocking `blocked`, and waits for its first heartbeat. */
    async function startAgent(blocked: string[]): Promise<{ teamId: number; dataDir: string }> {
      const team = await agentTeam(server, adminToken, { contestId, name: uniqueName('Equipo'), blocked });
      let dataDir: string;
      ({ agent, dataDir } = await prefix.startAgent(exe, server.url, team.key, uniqueName('agent')));
      started.push(agent.child);
      const deadline = Date.now() + 60_000;
      for (;;) {
        const machines = await get<{ machines: Array<{ team: { id: number } }> }>('/api/labMachines');
        if (machines.machines.some((machine) => machine.team.id === team.id)) break;
        if (Date.now() > deadline) throw new Error(`sin latido del agente:\n${await agent.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return { teamId: team.id, dataDir };
    }

    /** Runs a Windows program of the test under Wine. */
    function launch(program: string, args: string[] = []): WineProcess {
      const spawned = prefix.spawn(program, args, uniqueName('programa'));
      started.push(spawned.child);
      return spawned;
    }

    it('ends a renamed copy by its version resource the first time it runs, and leaves a program that only shares the product name', async () => {
      const blocked = `${uniqueName('prohibido')}.exe`;
      const { teamId } = await startAgent([blocked]);
      // An honest program whose ProductName happens to be the blocked name: it keeps running.
      const honest = launch(
        await windowsProgram('editor.exe', { OriginalFilename: 'editor.exe', ProductName: blocked }, 4096),
      );
      // The blocked program, renamed before it ever ran under its own name: its resource still says it.
      const disguise = `${uniqueName('notas')}.exe`;
      const program = await windowsProgram(
        disguise,
        { OriginalFilename: blocked, InternalName: blocked.replace(/\.exe$/, ''), ProductName: 'Prohibido' },
        4096,
      );
      const startedAt = Date.now();
      const copy = launch(program);
      await within(30_000, copy.exited, 'la copia renombrada termina por su recurso de versión').catch(
        async (error: Error) => {
          throw new Error(`${error.message}\n${await agent!.output()}`);
        },
      );
      console.log(
        `Wine: copia renombrada (recurso de versión) terminada ${Date.now() - startedAt} ms después`,
      );
      expect(honest.child.exitCode, await agent!.output()).toBeNull();
      expect(honest.child.signalCode).toBeNull();
      expect(await attemptsOf(teamId, 1)).toEqual([
        expect.objectContaining({ process: blocked, executable: disguise, killed: true }),
      ]);
      honest.child.kill('SIGKILL');
      await prefix.kill();
      agent = undefined;
    }, 120_000);

    it('ends a renamed copy with one byte appended of a program it ended by name', async () => {
      const blocked = `${uniqueName('bloqueado')}.exe`;
      const { teamId } = await startAgent([blocked]);
      // No version resource strings: only its bytes say what it is. 64 KiB of random data of its own.
      const original = await windowsProgram(blocked, {}, 64 * 1024);
      const first = launch(original);
      await within(30_000, first.exited, 'el programa bloqueado termina por su nombre');
      const patched = path.join(path.dirname(original), `${uniqueName('otro')}.exe`);
      await copyFile(original, patched);
      await appendFile(patched, Buffer.from([0x2a]));
      expect((await stat(patched)).size).toBe((await stat(original)).size + 1);
      const startedAt = Date.now();
      const copy = launch(patched);
      await within(30_000, copy.exited, 'la copia con un byte más termina').catch(async (error: Error) => {
        throw new Error(`${error.message}\n${await agent!.output()}`);
      });
      console.log(`Wine: copia con un byte añadido terminada ${Date.now() - startedAt} ms después`);
      const rows = await attemptsOf(teamId, 2);
      expect(rows.filter((row) => row.executable === null)).toEqual([
        expect.objectContaining({ process: blocked, killed: true }),
      ]);
      expect(rows.filter((row) => row.executable !== null)).toEqual([
        expect.objectContaining({ process: blocked, executable: path.basename(patched), killed: true }),
      ]);
      await prefix.kill();
      agent = undefined;
    }, 120_000);

    it("ends a renamed copy of Windows' node.exe with one byte appended, after a copy of it was ended by name", async () => {
      const blocked = `${uniqueName('bloqueado')}.exe`;
      const { teamId } = await startAgent([blocked]);
      // Windows' official node.exe under the test's name, with random bytes of its own (its SHA-256 is
      // this test's alone), waiting.
      const dir = await tempDir('agent-wine-node-');
      const original = path.join(dir, blocked);
      await copyFile(nodeBinary(TARGETS[1]), original);
      await appendFile(original, randomBytes(16));
      const idle = ['-e', 'setInterval(() => {}, 1000)'];
      await within(30_000, launch(original, idle).exited, 'el node.exe bloqueado termina por su nombre');
      const patched = path.join(dir, `${uniqueName('otro')}.exe`);
      await copyFile(original, patched);
      await appendFile(patched, Buffer.from([0x2a]));
      // Started at once: the build-id (its CodeView record) learned from the kill by name ends it
      // before either file's digest is ready (about 0.6 s each for these 70 MB under Wine).
      const startedAt = Date.now();
      const copy = launch(patched, idle);
      await within(30_000, copy.exited, 'la copia de node.exe con un byte más termina').catch(
        async (error: Error) => {
          throw new Error(`${error.message}\n${await agent!.output()}`);
        },
      );
      console.log(`Wine: node.exe con un byte añadido terminado ${Date.now() - startedAt} ms después`);
      expect((await attemptsOf(teamId, 2)).filter((row) => row.executable !== null)).toEqual([
        expect.objectContaining({ process: blocked, executable: path.basename(patched), killed: true }),
      ]);
      await prefix.kill();
      agent = undefined;
    }, 150_000);
  },
);
