/**
 * The screen captures' encoder thread (agent/src/capture-encoder-thread.ts) as one CommonJS script,
 * for the single-file builds (build.ts: the single executables; pack.ts: the npm package): they embed
 * it as the string `__CAPTURE_ENCODER_SOURCE__`, which capture-encoder.ts runs with
 * `new Worker(source, { eval: true })`, since a single executable has no file beside it to start a
 * thread from. Only built-in modules stay outside (a SEA's `require` reaches no other).
 */
import { build, type Plugin } from 'esbuild';
import path from 'node:path';
import { CAPTURE_MAX_BYTES, CAPTURE_MAX_WIDTH } from '@concurso/shared';

/**
 * `@concurso/shared` for the thread: only the two limits capture-image.ts reads, their values taken
 * from shared here. The whole package (its zod schemas) made the thread's script 580 KB and added
 * 200-300 ms to its start; a thread file that imported any other name of shared fails the build
 * ("No matching export").
 */
const sharedLimitsOnly: Plugin = {
  name: 'shared-capture-limits',
  setup(on) {
    on.onResolve({ filter: /^@concurso\/shared$/ }, () => ({ path: 'shared', namespace: 'capture-limits' }));
    on.onLoad({ filter: /.*/, namespace: 'capture-limits' }, () => ({
      contents:
        `export const CAPTURE_MAX_BYTES = ${CAPTURE_MAX_BYTES};\n` +
        `export const CAPTURE_MAX_WIDTH = ${CAPTURE_MAX_WIDTH};\n`,
      loader: 'js',
    }));
  },
};

/** The esbuild `define` that embeds the encoder thread's bundle into the agent's bundle. */
export async function encoderThreadDefine(agentDir: string): Promise<Record<string, string>> {
  const result = await build({
    entryPoints: [path.join(agentDir, 'src', 'capture-encoder-thread.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    write: false,
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [sharedLimitsOnly],
  });
  const source = result.outputFiles[0]!.text;
  return { __CAPTURE_ENCODER_SOURCE__: JSON.stringify(source) };
}
