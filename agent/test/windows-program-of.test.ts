/**
 * proclist.exe (agent/native/proclist.c) under Debian's Wine: for an interpreter it prints the
 * command line and the working folder, and the Windows lister keeps only the script it runs
 * (program-of.ts); for any other program nothing of its command line is read. The "interpreter" is a
 * waiting program the test compiled and named `python.exe`: only its name makes it one.
 */
import { execFile } from 'node:child_process';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProclist } from '../src/windows-lister.js';
import { cleanUp, tempDir } from './helpers/processes.js';
import { mingwInstalled, windowsProgram } from './helpers/windows-program.js';
import { WinePrefix, windowsPath, wineInstalled, type WineProcess } from './helpers/wine.js';

const run = promisify(execFile);
const agentDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe.runIf(wineInstalled() && mingwInstalled())(
  "proclist.exe reads an interpreter's script (Wine)",
  () => {
    let prefix: WinePrefix;
    let proclist: string;
    let dir: string;
    const started: WineProcess[] = [];

    beforeAll(async () => {
      dir = await tempDir('agent-proclist-');
      proclist = path.join(dir, 'proclist.exe');
      prefix = new WinePrefix(await tempDir('agent-wine-'));
      await Promise.all([
        run('x86_64-w64-mingw32-gcc', [
          '-O2',
          '-municode',
          '-s',
          '-o',
          proclist,
          path.join(agentDir, 'native', 'proclist.c'),
        ]),
        prefix.init(),
      ]);
    }, 180_000);

    afterAll(async () => {
      for (const p of started) p.child.kill('SIGKILL');
      await prefix?.kill();
      await cleanUp();
    }, 60_000);

    it("an interpreter's relative script is resolved against its folder; another program gets no program", async () => {
      const waiting = await windowsProgram('espera.exe', {});
      const python = path.join(dir, 'python.exe');
      const other = path.join(dir, 'otro.exe');
      await copyFile(waiting, python);
      await copyFile(waiting, other);
      // `wine` starts the program in the folder it was started from: the test's folder here.
      started.push(prefix.spawn(python, ['-u', 'chat gpt.py', 'secreto'], 'python'));
      started.push(prefix.spawn(other, ['chat.py', 'secreto'], 'otro'));

      let listed: ReturnType<typeof parseProclist> = [];
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const lister = prefix.spawn(proclist, [], `proclist-${Date.now()}`);
        await lister.exited;
        listed = parseProclist(await lister.output());
        if (listed.some((p) => p.name === 'python.exe') && listed.some((p) => p.name === 'otro.exe')) break;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      const pythonProc = listed.find((p) => p.name === 'python.exe');
      const otherProc = listed.find((p) => p.name === 'otro.exe');
      expect(pythonProc?.program).toEqual({
        path: `${windowsPath(process.cwd())}\\chat gpt.py`,
        via: 'python',
      });
      expect(otherProc).toBeDefined();
      expect(otherProc).not.toHaveProperty('program');
      expect(JSON.stringify(listed)).not.toContain('secreto');
    }, 60_000);
  },
);
