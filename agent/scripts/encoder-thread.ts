/**
 * The screen captures' encoder thread (agent/src/capture-encoder-thread.ts) as one CommonJS script,
 * for the single-file builds (build.ts: the single executables; pack.ts: the npm package): they embed
 * it as the string `__CAPTURE_ENCODER_SOURCE__`, which capture-encoder.ts runs with
 * `new Worker(source, { eval: true })`, since a single executable has no file beside it to start a
 * thread from. Only built-in modules stay outside (a SEA's `require` reaches no other).
 */
import { build } from 'esbuild';
import path from 'node:path';

/**
 * The esbuild `define` that embeds the encoder thread's bundle (about 25 KB: capture-codec.ts and
 * jpeg-js) into the agent's bundle.
 * @throws when the thread's code reaches `@concurso/shared`: the whole package (its zod schemas) made
 *   the thread's script 580 KB and its start 200-300 ms slower; the thread gets the limits in each job.
 */
export async function encoderThreadDefine(agentDir: string): Promise<Record<string, string>> {
  const result = await build({
    entryPoints: [path.join(agentDir, 'src', 'capture-encoder-thread.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    write: false,
    minify: true,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const shared = Object.keys(result.metafile.inputs).filter((input) => /(^|\/)shared\/src\//.test(input));
  if (shared.length > 0)
    throw new Error(`El hilo de las capturas no debe cargar @concurso/shared: ${shared.join(', ')}`);
  return { __CAPTURE_ENCODER_SOURCE__: JSON.stringify(result.outputFiles[0]!.text) };
}
