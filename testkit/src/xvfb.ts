import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './environment.js';

const run = promisify(execFile);

/** A virtual X display (Xvfb) standing for a contestant's screen (the judges' messages). */
export interface VirtualDisplay {
  /** `:N`. */
  display: string;
  /** Runs `xdotool args` on the display; answers its stdout. */
  xdotool(args: string[]): Promise<string>;
  /** The id of the first window titled `title`, waiting up to `ms` (ms); '' when none appeared. */
  waitForWindow(title: string, ms: number): Promise<string>;
  /**
   * The text window `windowId` (a zenity dialog) shows, read as a person would copy it: Tab to its
   * selectable label, Ctrl+A, Ctrl+C, then the clipboard (Debian's `xclip`), and Shift+Tab back to
   * its button. '' when nothing could be copied.
   */
  readText(windowId: string): Promise<string>;
  /** Saves a screenshot of the display to test-results/`name`.xwd (kept for a failed test). */
  screenshot(name: string): Promise<void>;
  stop(): void;
}

/** A display number no X server uses here, from `first`. */
function freeDisplay(first: number): string {
  for (let n = first; n < first + 100; n++) {
    if (!existsSync(`/tmp/.X11-unix/X${n}`) && !existsSync(`/tmp/.X${n}-lock`)) return `:${n}`;
  }
  throw new Error(`no free X display from :${first}`);
}

/**
 * Starts Xvfb (Debian's `xvfb`, installed by scripts/test-env.sh) on a free display from `first`
 * (projects running at once start from different numbers) and waits for its socket.
 * @throws when it does not come up within 5 s.
 */
export async function startXvfb(first = 90): Promise<VirtualDisplay> {
  const display = freeDisplay(first);
  const server = spawn('Xvfb', [display, '-screen', '0', '1024x768x24', '-nolisten', 'tcp'], {
    stdio: 'ignore',
  });
  const socket = `/tmp/.X11-unix/X${display.slice(1)}`;
  for (let i = 0; i < 50 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 100));
  if (!existsSync(socket)) {
    server.kill('SIGKILL');
    throw new Error(`Xvfb did not start on ${display}`);
  }
  const xdotool = async (args: string[]) =>
    (await run('xdotool', args, { env: { ...process.env, DISPLAY: display }, timeout: 5_000 })).stdout;
  return {
    display,
    xdotool,
    async waitForWindow(title, ms) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found =
          (await xdotool(['search', '--name', title]).catch(() => '')).trim().split('\n')[0] ?? '';
        if (found || Date.now() > deadline) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async readText(windowId) {
      await xdotool([
        'windowfocus',
        '--sync',
        windowId,
        'key',
        '--clearmodifiers',
        'Tab',
        'ctrl+a',
        'ctrl+c',
      ]);
      const text = await run('xclip', ['-o', '-selection', 'clipboard', '-target', 'UTF8_STRING'], {
        env: { ...process.env, DISPLAY: display },
        timeout: 5_000,
      }).then(
        ({ stdout }) => stdout,
        () => '',
      );
      await xdotool(['windowfocus', '--sync', windowId, 'key', '--clearmodifiers', 'shift+Tab']);
      return text;
    },
    async screenshot(name) {
      const dir = path.join(repoRoot, 'test-results');
      await mkdir(dir, { recursive: true });
      await run('xwd', ['-root', '-display', display, '-out', path.join(dir, `${name}.xwd`)]).catch(
        () => undefined,
      );
    },
    stop: () => void server.kill('SIGTERM'),
  };
}
