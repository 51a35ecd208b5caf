// `npm run build` (and the first half of `npm start`): compiles what changed since the last build, so a
// second `npm start` goes straight to the server (no tsx in production; it rebuilds only what
// changed). Plain JavaScript run by node: building needs neither tsx nor a TypeScript loader.
//
//   node scripts/build.mjs            the web client (when changed), then the server (when changed)
//   node scripts/build.mjs server     only the server bundle (what the tests and bench spawn)
//   node scripts/build.mjs --force    rebuild regardless of dates
//
// - The server: one esbuild bundle per entry point in server/dist/ (`server.js` for `npm start`,
//   `seed-demo.js` for `npm run seed:demo`, `attempt-worker.js` for the attempts' worker thread that
//   server.js starts), ESM for Node 20. Our own TypeScript (server/src,
//   migrations/, and the workspace `@concurso/shared`, which is TypeScript source) is inlined; every
//   npm package stays external and is loaded from node_modules as usual. server/dist/ sits at the
//   same depth as server/src/, so app.ts's `WEB_DIST_DIR` (`../../web/dist` from import.meta.url)
//   names the same folder in both. esbuild's metafile (server/dist/meta.json) lists every input: the
//   bundle is rebuilt only when one of them (or this script) is newer than it. Files are written
//   to a temporary name and renamed, so a process starting meanwhile never reads half a file.
// - The web: `vite build` (web/dist) only when a file it is made from is newer than web/dist/index.html
//   (web/src, web/index.html, web/public, its configs, shared/src, the lockfile). It takes seconds;
//   the check takes milliseconds.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_BUILD_OPTIONS, SERVER_PLUGINS, WORKER_PLUGINS } from './esbuild-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const thisScript = fileURLToPath(import.meta.url);
const optionsScript = fileURLToPath(new URL('./esbuild-server.mjs', import.meta.url));
const args = process.argv.slice(2);
const force = args.includes('--force');
const targets = args.filter((a) => !a.startsWith('--'));
const wanted = (target) => targets.length === 0 || targets.includes(target);

/** Server entry points: output name → source. */
const SERVER_ENTRIES = {
  server: 'server/src/server.ts',
  'seed-demo': 'server/src/db/seed-demo-cli.ts',
};
/**
 * Worker thread entry points, bundled apart (`WORKER_PLUGINS`, esbuild-server.mjs): the attempts' worker
 * (server.js starts it from its own folder, attempt-thread.ts).
 */
const WORKER_ENTRIES = {
  'attempt-worker': 'server/src/modules/agent/attempt-worker.ts',
};
const ALL_ENTRIES = { ...SERVER_ENTRIES, ...WORKER_ENTRIES };
const SERVER_OUT = path.join(root, 'server', 'dist');
const SERVER_META = path.join(SERVER_OUT, 'meta.json');

/** Modification time in ms, or -Infinity when `file` is missing. */
function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return -Infinity;
  }
}

/**
 * The newest modification time among `paths` and, for folders, everything below them. Folders count
 * too: deleting or renaming a file changes only its folder's time.
 */
function newest(paths) {
  let latest = -Infinity;
  for (const p of paths) {
    const full = path.join(root, p);
    if (!existsSync(full)) continue;
    latest = Math.max(latest, mtime(full));
    if (!statSync(full).isDirectory()) continue;
    for (const entry of readdirSync(full, { recursive: true, withFileTypes: true })) {
      latest = Math.max(latest, mtime(path.join(entry.parentPath, entry.name)));
    }
  }
  return latest;
}

/**
 * Whether the server bundle is missing, older than one of its inputs, this script or its options
 * (esbuild-server.mjs), or an input is gone.
 */
function serverStale() {
  if (!existsSync(SERVER_META)) return true;
  const built = Math.min(
    ...Object.keys(ALL_ENTRIES).map((name) => mtime(path.join(SERVER_OUT, `${name}.js`))),
  );
  const inputs = Object.keys(JSON.parse(readFileSync(SERVER_META, 'utf8')).inputs);
  return [thisScript, optionsScript, ...inputs.map((input) => path.join(root, input))].some((file) => {
    const changed = mtime(file);
    return changed === -Infinity || changed > built;
  });
}

async function buildServer() {
  if (!force && !serverStale()) {
    console.log('servidor: al día (server/dist)');
    return;
  }
  const started = Date.now();
  // Loaded only when there is something to build: the date check alone stays a few milliseconds.
  const { build } = await import('esbuild');
  const options = {
    ...SERVER_BUILD_OPTIONS,
    absWorkingDir: root,
    outdir: SERVER_OUT,
    sourcemap: 'linked',
    metafile: true,
    write: false,
  };
  const results = await Promise.all([
    build({ ...options, entryPoints: SERVER_ENTRIES, plugins: SERVER_PLUGINS }),
    build({ ...options, entryPoints: WORKER_ENTRIES, plugins: WORKER_PLUGINS }),
  ]);
  // One metafile for both builds: every input, so a change to any rebuilds them.
  const metafile = {
    inputs: Object.assign({}, ...results.map((result) => result.metafile.inputs)),
    outputs: Object.assign({}, ...results.map((result) => result.metafile.outputs)),
  };
  mkdirSync(SERVER_OUT, { recursive: true });
  const files = [
    ...results.flatMap((result) =>
      result.outputFiles.map((file) => ({ path: file.path, contents: file.contents })),
    ),
    { path: SERVER_META, contents: JSON.stringify(metafile) },
  ];
  // The metafile last: a build cut short leaves it older than the sources, so the next one runs again.
  for (const file of files) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  console.log(`servidor: compilado en ${Date.now() - started} ms (server/dist)`);
}

/** What web/dist is made from (relative to the repository root). */
const WEB_INPUTS = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'web/package.json',
  'web/tsconfig.json',
  'shared/src',
  'package-lock.json',
];

function buildWeb() {
  const built = mtime(path.join(root, 'web', 'dist', 'index.html'));
  if (!force && newest(WEB_INPUTS) <= built) {
    console.log('web: al día (web/dist)');
    return;
  }
  console.log('web: compilando (vite build)…');
  const run = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}

if (wanted('web')) buildWeb();
if (wanted('server')) {
  // esbuild has already printed each error with its file and line: no stack trace on top of them.
  await buildServer().catch(() => process.exit(1));
}
