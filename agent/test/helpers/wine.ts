/**
 * Windows programs on this Linux machine through Debian's Wine (`wine64`, installed by
 * scripts/test-env.sh), for the agent's Windows executable. Each test gets a Wine prefix
 * of its own (its own `C:`, registry and wineserver) set to report Windows 10, since Node refuses
 * anything older: a copy of one template prefix made once per test run (`templatePrefix`), since
 * making a prefix (`winecfg`) costs about 10 s of CPU and copying it a fraction of a second.
 * Wine's console output reaches a file but not a pipe, so programs write to files here.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { copyFile, link, mkdir, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { startXvfb, type VirtualDisplay } from '@concurso/testkit/xvfb';
import { oncePerRun } from './once-per-run.js';
import { cleanUp, tempDir } from './processes.js';

const run = promisify(execFile);

/** Debian's Wine loader and server (`wine64` package). */
const WINE = '/usr/lib/wine/wine64';
const WINESERVER = '/usr/lib/wine/wineserver';

/** Whether Wine is installed (scripts/test-env.sh installs it where Debian packages can be). */
export const wineInstalled = (): boolean => existsSync(WINE);

/** A Linux path as Wine's `Z:` drive sees it. */
export const windowsPath = (linuxPath: string): string => `Z:${linuxPath.replaceAll('/', '\\')}`;

/** A Windows program running under Wine, its console written to `output`. */
export interface WineProcess {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What it wrote to stdout and stderr so far. */
  output: () => Promise<string>;
}

/**
 * The environment of Wine in the prefix `dir`: its home is the prefix too (Wine links the user's
 * Desktop, Documents… there), no debug output, no Mono or Gecko installer. No `DISPLAY`.
 *
 * `TMPDIR` is the prefix too: Debian's Wine (when `/run/user/<uid>` is missing, as on a CI machine or
 * in a container) makes a prefix's wineserver folder (its socket and lock) with `mkdtemp` as
 * `$TMPDIR/wine-XXXXXX` (`/tmp` when unset), writes that name in the prefix's `wineserver` file and
 * never removes the folder: one `/tmp/wine-…` was left behind per prefix and per template. Under the
 * prefix, it goes with the prefix's folder. Every Wine command of a prefix takes this environment:
 * one without this `TMPDIR` would make the folder of that name again in `/tmp`.
 */
function wineEnv(dir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    TMPDIR: dir,
    WINEPREFIX: dir,
    WINEDEBUG: '-all',
    WINEDLLOVERRIDES: 'mscoree,mshtml=',
  };
}

/** Longest wait for the run's template prefix, its making included (ms). */
const TEMPLATE_TIMEOUT_MS = 120_000;

/**
 * The folder of this test run's template prefix, reporting Windows 10, made by the first test file
 * that asks and copied by every prefix (`WinePrefix.init`). Files run in separate processes: a `mkdir`
 * lock in the run's folder (agent/test/global-setup.ts) says who makes it, as for the shared agent
 * build (helpers/agent-build.ts); the others wait for its `ready` mark. Made without a display, so it
 * is the same whichever file makes it; Wine writes the display's monitors when a program of a copy
 * starts on one. Wine's server is waited out (`wineserver -w`), which writes the registry files.
 * @throws when Wine fails (the next caller tries again) or the wait passes `TEMPLATE_TIMEOUT_MS`.
 */
async function templatePrefix(): Promise<string> {
  const root = await oncePerRun(
    'wine-template',
    (runDir) => existsSync(path.join(runDir, 'wine-template.ready')),
    async (runDir, msLeft) => {
      const deadline = Date.now() + msLeft;
      const dir = path.join(runDir, 'wine-template');
      // What a failed try left; the prefix is made in place, since Wine links its user folders to it.
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir);
      const env = wineEnv(dir);
      await run(WINE, ['winecfg', '-v', 'win10'], { env, timeout: msLeft });
      await run(WINESERVER, ['-w'], { env, timeout: Math.max(1, deadline - Date.now()) });
      await writeFile(path.join(runDir, 'wine-template.ready'), '');
    },
    TEMPLATE_TIMEOUT_MS,
    `el prefijo de Wine de la ejecución no estuvo listo en ${TEMPLATE_TIMEOUT_MS} ms`,
  );
  return path.join(root, 'wine-template');
}

/**
 * Wine's own programs and libraries in a prefix (system32's `.dll`, `.exe`, `.nls`…, about 630 MB):
 * Wine only maps them, never writes them, so a copy of the template links them (one file, two names)
 * instead of copying them. Everything else (the registry, `win.ini`, the user's folders) is copied.
 */
const WINE_BINARY = /\.(?:dll|exe|drv|sys|ocx|cpl|acm|ax|ds|tlb|nls|msstyles|com)$/i;

/**
 * Copies the prefix `from` into the empty folder `to`: Wine's binaries linked (`WINE_BINARY`), every
 * other file copied, symbolic links pointing into `from` (the user's Desktop, Documents…) made to point
 * at the same place in `to`, others (`c:`, `z:`) kept. Leaves out Debian's `wineserver` file (the name
 * of the prefix's server folder, see `wineEnv`) and that folder, so the copy gets a folder of its own
 * as a new prefix does.
 */
async function copyPrefix(from: string, to: string): Promise<void> {
  // The template's server folder, `wine-XXXXXX` under the prefix (`TMPDIR`), when Wine made one there.
  const serverFolder = await readFile(path.join(from, 'wineserver'), 'utf8').catch(() => null);
  const copyDir = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(from, rel), { withFileTypes: true });
    await Promise.all(
      entries.map(async (entry) => {
        const name = path.join(rel, entry.name);
        const source = path.join(from, name);
        const target = path.join(to, name);
        if (name === serverFolder) {
          // The template's wineserver folder (see above).
        } else if (entry.isDirectory()) {
          await mkdir(target);
          await copyDir(name);
        } else if (entry.isSymbolicLink()) {
          const points = await readlink(source);
          const inside = points === from || points.startsWith(`${from}/`);
          await symlink(inside ? to + points.slice(from.length) : points, target);
        } else if (name === 'wineserver') {
          // Debian's pointer to the template's server folder (see above).
        } else if (WINE_BINARY.test(entry.name)) {
          await link(source, target).catch(() => copyFile(source, target));
        } else {
          await copyFile(source, target);
        }
      }),
    );
  };
  await copyDir('');
}

/**
 * A Wine prefix (its own `C:`, registry and wineserver) in `dir`, reporting Windows 10. Programs of
 * other prefixes never see its programs: each prefix has a wineserver of its own.
 */
export class WinePrefix {
  readonly env: NodeJS.ProcessEnv;

  constructor(readonly dir: string) {
    this.env = wineEnv(dir);
  }

  /**
   * Makes the prefix in its (empty) folder: a copy of the run's template prefix (`templatePrefix`,
   * made by the first prefix of the run, about 10 s of CPU; a copy takes well under a second).
   * @throws when the template cannot be made or copied.
   */
  async init(): Promise<void> {
    await copyPrefix(await templatePrefix(), this.dir);
  }

  /** Starts `exe` with `args`; stdout and stderr go to `<dir>/<name>.log`. */
  spawn(exe: string, args: string[], name: string): WineProcess {
    const log = path.join(this.dir, `${name}.log`);
    const fd = openSync(log, 'w');
    const child = spawn(WINE, [exe, ...args], { env: this.env, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    return { child, exited, output: () => readFile(log, 'utf8').catch(() => '') };
  }

  /**
   * Starts the agent's Windows executable `exe` against `server` with `key` in a key file of a fresh
   * data folder (`clave.txt`), polling every 200 ms; its console goes to `<dir>/<name>.log`.
   */
  async startAgent(
    exe: string,
    server: string,
    key: string,
    name = 'agent',
  ): Promise<{ agent: WineProcess; dataDir: string }> {
    const dataDir = await tempDir('agent-wine-data-');
    const keyFile = path.join(dataDir, 'clave.txt');
    await writeFile(keyFile, key);
    const args = ['--server', server, '--key-file', windowsPath(keyFile), '--data-dir', windowsPath(dataDir)];
    return { agent: this.spawn(exe, [...args, '--poll-ms', '200'], name), dataDir };
  }

  /** Ends every program of the prefix and its wineserver. */
  async kill(): Promise<void> {
    await run(WINESERVER, ['-k'], { env: this.env, timeout: 30_000 }).catch(() => undefined);
  }
}

/** What {@link useWineScreen} gives a test file; `screen` and `prefix` are set once its `beforeAll` ran. */
export interface WineScreen {
  /** The Xvfb display Wine draws on and the test reads. */
  screen: VirtualDisplay;
  prefix: WinePrefix;
  /** The Windows programs the test started, killed after the file. */
  started: WineProcess[];
}

/**
 * Windows programs on a screen, for a test file, by the Vitest hooks it registers: beforeAll (within
 * `timeoutMs`) starts an Xvfb display and a Wine prefix of its own whose windows show on it, the
 * prefix made at the same time as `alongside()` (the file's own builds); afterAll kills `started`, the
 * prefix's programs and the display, then removes the temp folders and programs of the test
 * (`cleanUp`). `close`: the file's own things to close before the display goes.
 */
export function useWineScreen(
  timeoutMs: number,
  alongside: () => Promise<unknown> = async () => undefined,
  close: () => Promise<unknown> = async () => undefined,
): WineScreen {
  const bed = { started: [] as WineProcess[] } as WineScreen;
  beforeAll(async () => {
    bed.screen = await startXvfb();
    bed.prefix = new WinePrefix(await tempDir('agent-wine-'));
    // Wine draws its windows, and reads the screen, on this display.
    bed.prefix.env.DISPLAY = bed.screen.display;
    await Promise.all([bed.prefix.init(), alongside()]);
  }, timeoutMs);
  afterAll(async () => {
    for (const p of bed.started) p.child.kill('SIGKILL');
    await bed.prefix?.kill();
    await close();
    bed.screen?.stop();
    await cleanUp();
  }, 60_000);
  return bed;
}
