/**
 * Windows programs on this Linux machine through Debian's Wine (`wine64`, installed by
 * scripts/test-env.sh), for the agent's Windows executable. Each test gets a Wine prefix
 * of its own (its own `C:` and wineserver) set to report Windows 10, since Node refuses anything older.
 * Wine's console output reaches a file but not a pipe, so programs write to files here.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

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

  /** Ends every program of the prefix and its wineserver. */
  async kill(): Promise<void> {
    await run(WINESERVER, ['-k'], { env: this.env, timeout: 30_000 }).catch(() => undefined);
  }
}
