import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const agentDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * `npm run agent:pack` makes a tarball a lab machine installs with Node.js and one command, with no
 * network: the installed command answers and, for one look (`--once`), says in one line when the server
 * is unreachable.
 */
describe('the packaged agent', () => {
  it('installs offline from its tarball and runs', async () => {
    await run(process.execPath, ['--import', 'tsx', 'scripts/pack.ts'], { cwd: agentDir, timeout: 60_000 });
    const prefix = await mkdtemp(path.join(os.tmpdir(), 'agent-install-'));
    try {
      await run(
        'npm',
        [
          'install',
          '--global',
          '--offline',
          '--no-audit',
          '--no-fund',
          '--prefix',
          prefix,
          path.join(agentDir, 'dist', 'concurso-agent-0.1.0.tgz'),
        ],
        { timeout: 60_000 },
      );
      const bin = path.join(prefix, 'bin', 'concurso-agent');
      const version = await run(bin, ['--version']);
      expect(version.stdout.trim()).toBe('0.1.0');
      // `--once`: as a service the agent waits for an unreachable server instead (connecting-agent.ts).
      const failed = await run(bin, ['--server', 'http://127.0.0.1:9', '--once'], {
        env: { ...process.env, CONCURSO_AGENT_KEY: 'ag_x' },
      }).then(
        () => null,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^No se pudo conectar al servidor/),
      ]);
    } finally {
      await rm(prefix, { recursive: true, force: true });
    }
  }, 120_000);
});
