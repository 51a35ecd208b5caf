/**
 * The agent's single executables (`npm run agent:build`, agent/scripts/build.ts) as the tests that run
 * them build them: into a folder of their own, as a lab admin's build machine does. The tests that only
 * run the executables share one build per test run (`sharedAgentBuild`): each build costs about 25 s of
 * CPU (two official Node binaries copied and injected), and the files that run them used to make one
 * each.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { oncePerRun } from './once-per-run.js';

const run = promisify(execFile);
const agentDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The agent's version (agent/package.json): part of each executable's name and of its `--version`. */
export const AGENT_VERSION = (
  JSON.parse(await readFile(path.join(agentDir, 'package.json'), 'utf8')) as { version: string }
).version;

/**
 * `npm run agent:build -- --out dir`: both executables into `dir`, within `timeoutMs` (ms).
 * @throws when the build fails or takes longer.
 */
export async function buildAgentInto(dir: string, timeoutMs: number): Promise<void> {
  await run(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--out', dir], {
    cwd: agentDir,
    timeout: timeoutMs,
  });
}

/**
 * The folder of this test run's one build of both executables (`buildAgentInto`), made by the first
 * test file that asks and read by the others (files run in separate processes: a `mkdir` lock in the
 * run's folder, agent/test/global-setup.ts, says who builds; the others wait for the finished folder,
 * renamed into place whole). Only for tests that run the executables, never write beside them.
 * @param timeoutMs longest wait, the build included (ms).
 * @throws when the build fails (the next caller tries again) or the wait passes `timeoutMs`.
 */
export async function sharedAgentBuild(timeoutMs: number): Promise<string> {
  const root = await oncePerRun(
    'agent-build',
    (runDir) => existsSync(path.join(runDir, 'agent-build')),
    async (runDir, msLeft) => {
      const partial = path.join(runDir, `agent-build-${process.pid}`);
      await buildAgentInto(partial, msLeft);
      await rename(partial, path.join(runDir, 'agent-build'));
    },
    timeoutMs,
    `la compilación compartida del agente no terminó en ${timeoutMs} ms`,
  );
  return path.join(root, 'agent-build');
}

/** The path of the executable for `target` that `buildAgentInto(dir)` writes. */
export function agentExecutable(dir: string, target: 'linux-x64' | 'win-x64'): string {
  return path.join(dir, `concurso-agent-${AGENT_VERSION}-${target}${target === 'win-x64' ? '.exe' : ''}`);
}
