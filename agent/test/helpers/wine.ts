/**
 * Windows programs on this Linux machine through Debian's Wine (`wine64`, installed by
 * scripts/test-env.sh), for the agent's Windows executable. Each test gets a Wine prefix
 * of its own (its own `C:` and wineserver) set to report Windows 10, since Node refuses anything older.
 * Wine's console output reaches a file but not a pipe, so programs write to files here.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { startXvfb, type VirtualDisplay } from '@concurso/testkit/xvfb';
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

/** A Wine prefix (its own `C:` and wineserver) in `dir`, reporting Windows 10. */
export class WinePrefix {
  readonly env: NodeJS.ProcessEnv;

  constructor(readonly dir: string) {
    this.env = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      WINEPREFIX: dir,
      WINEDEBUG: '-all',
      WINEDLLOVERRIDES: 'mscoree,mshtml=',
    };
  }

  /** Creates the prefix and sets its Windows version to 10 (a few seconds the first time). */
  async init(): Promise<void> {
    await run(WINE, ['winecfg', '-v', 'win10'], { env: this.env, timeout: 120_000 });
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
