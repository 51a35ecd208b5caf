/**
 * The agent's command line as the tests start it as a process: the one-file bundle `npm run agent:pack`
 * ships (agent/scripts/bundle-cli.ts), made once per test process into a folder of its own (removed
 * when the process exits), since each start of the sources through tsx (agent/bin, `npm run agent`)
 * costs about 2 s more CPU. Tests of agent/bin itself start that instead.
 */
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleAgentCli } from '../../scripts/bundle-cli.js';

const agentDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
let bundled: Promise<string> | undefined;

/**
 * The path of this process's bundle of the agent's CLI (`node <path> --server …` runs it), made by
 * the first call.
 * @throws when the bundle cannot be made (the next call tries again).
 */
export function agentCliBundle(): Promise<string> {
  bundled ??= (async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'agent-cli-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'concurso-agent.mjs');
    await bundleAgentCli(agentDir, file);
    return file;
  })().catch((err: unknown) => {
    bundled = undefined;
    throw err;
  });
  return bundled;
}
