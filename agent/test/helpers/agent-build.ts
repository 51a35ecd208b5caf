/**
 * The agent's single executables (`npm run agent:build`, agent/scripts/build.ts) as the tests that run
 * them build them: into a temp folder of the test's own, as a lab admin's build machine does.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

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

/** The path of the executable for `target` that `buildAgentInto(dir)` writes. */
export function agentExecutable(dir: string, target: 'linux-x64' | 'win-x64'): string {
  return path.join(dir, `concurso-agent-${AGENT_VERSION}-${target}${target === 'win-x64' ? '.exe' : ''}`);
}
