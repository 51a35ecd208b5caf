/**
 * The agent's command line bundled with everything it imports (shared, zod, ps-list) into one ES module
 * for Node.js 20: the file `npm run agent:pack` ships (pack.ts), and the agent the tests start as a
 * process (agent/test/helpers/agent-cli.ts), which starts in about 0.6 s of CPU where the sources
 * through tsx (`npm run agent`) take about 2.6 s.
 */
import { build } from 'esbuild';
import path from 'node:path';
import { encoderThreadDefine } from './encoder-thread.js';

/**
 * Writes the bundle of `<agentDir>/src/cli.ts` to `outfile` (an executable script: a `#!` line, and a
 * `require` for the CommonJS packages it carries).
 * @throws when esbuild fails, or when the captures' thread reaches `@concurso/shared` (encoder-thread.ts).
 */
export async function bundleAgentCli(agentDir: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [path.join(agentDir, 'src', 'cli.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // The captures' encoder thread, run from this string: the package is one file.
    define: await encoderThreadDefine(agentDir),
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    logLevel: 'warning',
  });
}
