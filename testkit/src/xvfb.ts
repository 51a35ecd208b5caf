import { execFile, spawn, type ChildProcess } from 'node:child_process';
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
  /**
   * Covers the whole screen with one colour (`#rrggbb`): a window of Debian's `xlogo` (x11-apps) as big
   * as the screen, its logo drawn in its background's colour, under a title of its own. Resolves with
   * its process once the window is there (at most `PAINT_MS`); kill it to uncover the screen (`stop`
   * kills every one left).
   * @throws when `xlogo` ends or cannot start first (its exit code and last output), or no window of
   *   its title shows in time.
   */
  paint(colour: string): Promise<ChildProcess>;
  /** Saves a screenshot of the display to test-results/`name`.xwd (kept for a failed test). */
  screenshot(name: string): Promise<void>;
  stop(): void;
}

/**
 * Longest wait for a painted window to show (ms): about 0.1 s alone; in a full run on 2 cores one took
 * more than 10 s (a cold start of the X client among the suite's Chromiums and Wine).
 */
const PAINT_MS = 30_000;

/** Painted windows so far, in every display: each one's title is unique (`paint`). */
let paints = 0;

/** Longest wait for Xvfb to say which display it took (ms). */
const XVFB_START_MS = 10_000;

/**
 * Starts Xvfb (Debian's `xvfb`, installed by scripts/test-env.sh) on a display it picks itself
 * (`-displayfd`: the X server takes the first free number and writes it back, so test files starting
 * displays at once never race for one; choosing a free number here and starting Xvfb on it after was a
 * race once files ran side by side). `size` is the screen's `WIDTHxHEIGHT` in pixels (24-bit colour).
 * @throws when it does not say its display within `XVFB_START_MS`.
 */
export async function startXvfb(size = '1024x768'): Promise<VirtualDisplay> {
  const server = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', `${size}x24`, '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  const number = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error('Xvfb did not start')), XVFB_START_MS);
    const done = (error?: Error) => {
      clearTimeout(timer);
      if (error) reject(error);
    };
    server.once('error', (error) => done(error));
    server.once('exit', (code) => done(new Error(`Xvfb ended (code ${code}) before saying its display`)));
    const fd = server.stdio[3] as NodeJS.ReadableStream;
    fd.setEncoding('utf8');
    fd.on('data', (chunk: string) => {
      text += chunk;
      const line = /^(\d+)\n/.exec(text);
      if (line) {
        done();
        resolve(line[1]!);
      }
    });
  }).catch((error: Error) => {
    server.kill('SIGKILL');
    throw error;
  });
  const display = `:${number}`;
  const xdotool = async (args: string[]) =>
    (await run('xdotool', args, { env: { ...process.env, DISPLAY: display }, timeout: 5_000 })).stdout;
  /**
   * The id of the first window whose name matches `name` (xdotool's regular expression), polled every
   * 100 ms for up to `ms`; '' when none showed, or as soon as `gaveUp()` answers something.
   */
  const findWindow = async (name: string, ms: number, gaveUp: () => unknown = () => null) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = (await xdotool(['search', '--name', name]).catch(() => '')).trim().split('\n')[0] ?? '';
      if (found || gaveUp() || Date.now() > deadline) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const painted: ChildProcess[] = [];
  return {
    display,
    xdotool,
    async paint(colour) {
      const title = `pintura-${process.pid}-${++paints}`;
      const window = spawn(
        'xlogo',
        ['-display', display, '-geometry', `${size}+0+0`, '-title', title, '-bg', colour, '-fg', colour],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      painted.push(window);
      let output = '';
      window.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2_000)));
      let ended: string | null = null;
      window.once('error', (error) => (ended = `xlogo did not start: ${error.message}`));
      window.once('exit', (code, signal) => (ended = `xlogo ended (code ${code}, signal ${signal})`));
      const found = await findWindow(`^${title}$`, PAINT_MS, () => ended);
      if (found) return window;
      throw new Error(
        ended
          ? `${ended} before its window showed on ${display}: ${output.trim()}`
          : `no window of xlogo on ${display} after ${PAINT_MS} ms`,
      );
    },
    waitForWindow: (title, ms) => findWindow(title, ms),
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
    stop: () => {
      for (const window of painted) window.kill('SIGKILL');
      server.kill('SIGTERM');
    },
  };
}
