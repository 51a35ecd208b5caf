/**
 * Grabbing the contestant's screen (agent/README.md, «Capturas de pantalla»). Linux: `xwd -root
 * -silent` (Debian's `x11-apps`) on the graphical session the judges' messages use
 * (message-screen.ts: the active logind session's X display, run as its user with its
 * `.Xauthority`), read from its stdout. Windows: the helper the single executable carries,
 * `screenshot.exe` (agent/native/screenshot.c: GDI's BitBlt of the virtual screen, in the
 * logged-in user's session), written to the agent's data folder and run there, its 24-bit BMP
 * written to a file. A grab gives the dump as the tool wrote it; capture-image.ts reads it.
 */
import { execFile, spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { decodeDump, type DumpFormat, type RgbaImage } from './capture-image.js';
import { writeEmbeddedHelper } from './embedded-helper.js';
import { displayReachable, graphicalSession, sessionSpawnOptions } from './message-screen.js';

/** The Windows helper's file name, as `npm run agent:build` embeds it and the agent writes it. */
export const SCREENSHOT_EXE = 'screenshot.exe';

/** Longest a grab may run before its tool is ended (ms). */
const GRAB_TIMEOUT_MS = 5_000;

/** Largest dump read (bytes): an 8K screen at 32 bits per pixel. */
const GRAB_MAX_BYTES = 160 * 1024 * 1024;

/** A raw grab: the dump's bytes, when it was taken, and how to read it. */
export interface RawGrab {
  /** When the screen was read (ISO 8601, the agent's clock). */
  takenAt: string;
  /** How long the tool took (ms). */
  ms: number;
  bytes: Buffer;
  format: DumpFormat;
}

/** Why a grab gave nothing: one short Spanish phrase («falta xwd (paquete x11-apps)»). */
export class GrabError extends Error {}

/** Grabs the screen once. @throws GrabError when it cannot (no session, no tool, the tool failed). */
export type ScreenGrabber = () => Promise<RawGrab>;

/** A raw grab read into pixels. @throws CaptureFormatError for a dump it cannot read. */
export function decodeGrab(grab: RawGrab): RgbaImage {
  return decodeDump(grab.bytes, grab.format);
}

/**
 * Linux's grabber: `xwd -root -silent` on `display` (default: `AGENT_DISPLAY`, else the logged-in
 * user's session, as the messages find it), as that user when the agent is root.
 */
export function xwdGrabber(display?: string): ScreenGrabber {
  return async () => {
    const session = await graphicalSession(display ?? process.env.AGENT_DISPLAY);
    if (!session || !(await displayReachable(session.display))) throw new GrabError('sin sesión gráfica');
    const started = Date.now();
    const takenAt = new Date().toISOString();
    const bytes = await new Promise<Buffer>((resolve, reject) => {
      const child = spawn('xwd', ['-root', '-silent', '-display', session.display], {
        ...sessionSpawnOptions(session),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const chunks: Buffer[] = [];
      let size = 0;
      let errors = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), GRAB_TIMEOUT_MS);
      child.stdout.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > GRAB_MAX_BYTES) child.kill('SIGKILL');
        else chunks.push(chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString('utf8')).slice(-200)));
      child.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(
          new GrabError(
            error.code === 'ENOENT'
              ? 'falta xwd (paquete x11-apps de Debian)'
              : `xwd no arrancó (${error.code})`,
          ),
        );
      });
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) return resolve(Buffer.concat(chunks));
        const why = errors.trim().split('\n').pop() ?? '';
        reject(new GrabError(`xwd terminó con ${signal ?? `código ${code}`}${why ? `: ${why}` : ''}`));
      });
    });
    return { takenAt, ms: Date.now() - started, bytes, format: 'xwd' };
  };
}

/**
 * Windows' grabber: runs `helper` (screenshot.exe) with a file of `dataDir` to write, reads that
 * BMP and removes it.
 */
function windowsGrabber(helper: string, dataDir: string): ScreenGrabber {
  return async () => {
    const file = path.join(dataDir, `captura-${randomUUID()}.bmp`);
    const started = Date.now();
    const takenAt = new Date().toISOString();
    try {
      await new Promise<void>((resolve, reject) => {
        execFile(helper, [file], { windowsHide: true, timeout: GRAB_TIMEOUT_MS }, (error) => {
          if (!error) return resolve();
          const code = (error as NodeJS.ErrnoException).code;
          reject(new GrabError(`${SCREENSHOT_EXE} terminó con ${code ?? 'error'}`));
        });
      });
      const bytes = await readFile(file);
      return { takenAt, ms: Date.now() - started, bytes, format: 'bmp' };
    } finally {
      await rm(file, { force: true });
    }
  };
}

/**
 * The grabber of this machine: Linux and other Unix, `xwdGrabber`; Windows, the helper the single
 * executable carries, written into `dataDir` (null when not the single executable: no helper).
 * @throws the file system's error when the helper cannot be written.
 */
async function defaultGrabber(dataDir: string): Promise<ScreenGrabber | null> {
  if (process.platform !== 'win32') return xwdGrabber();
  const helper = await writeEmbeddedHelper(dataDir, SCREENSHOT_EXE);
  return helper ? windowsGrabber(helper, dataDir) : null;
}

/**
 * `defaultGrabber` of `dataDir`, found on the first grab (writing the Windows helper then, not at
 * start); a machine without one answers every grab with a `GrabError`.
 */
export function lazyDefaultGrabber(dataDir: string): ScreenGrabber {
  let found: Promise<ScreenGrabber | null> | null = null;
  return async () => {
    found ??= defaultGrabber(dataDir).catch((error: unknown) => {
      found = null;
      throw new GrabError(`no se pudo preparar ${SCREENSHOT_EXE} (${String(error)})`);
    });
    const grabber = await found;
    if (!grabber) throw new GrabError('este sistema no tiene con qué tomarla');
    return grabber();
  };
}
