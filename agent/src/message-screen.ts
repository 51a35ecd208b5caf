import { execFile, spawn } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { AgentMessage } from '@concurso/shared';
import { TEXTS } from './texts.js';

const run = promisify(execFile);

/** The title of a message's window on the machine's screen. */
export const MESSAGE_WINDOW_TITLE = 'Mensaje de los jueces';
/** The title of the agent's own notices (the screen captures', capture-notice.ts). */
const NOTICE_WINDOW_TITLE = 'Aviso del concurso';
/** The button that closes it (zenity's own says «OK»). */
const MESSAGE_OK_LABEL = 'Aceptar';

/** How long a message window must stay up before it counts as shown (ms): a dialog that cannot open exits at once. */
const SHOWN_AFTER_MS = 500;

/**
 * Whether a message got on the screen: `{ shown: true }`, or `{ shown: false, reason }` with one short
 * Spanish phrase the sender reads («sin sesión gráfica», «zenity no está instalado», «la ventana se
 * cerró al abrirse (código 255)»).
 */
export type ShowOutcome = { shown: true } | { shown: false; reason: string };

/** What became of a message on the screen. */
export interface MessageShowing {
  /** Resolves once it is on the screen (`entregado`), or once it is known it could not be shown (`falló`). */
  shown: Promise<ShowOutcome>;
  /** Resolves true when the contestant closed it (`visto`), false when it expired or could not be told. */
  closed: Promise<boolean>;
}

/** Shows messages on the machine's screen, above other windows (docs/design.md section 6a). */
export interface MessageScreen {
  show(message: AgentMessage): MessageShowing;
  /**
   * Shows a notice of the agent itself the same way, titled `NOTICE_WINDOW_TITLE` (absent: the
   * screen shows no notices).
   */
  notice?(message: AgentMessage): MessageShowing;
}

/** A graphical session to show a message in: its X display and, when the agent runs as root, its user. */
export interface GraphicalSession {
  display: string;
  uid?: number;
  gid?: number;
  home?: string;
}

/** Options of {@link desktopMessageScreen}. */
export interface DesktopMessageScreenOptions {
  /** The X display to use (e.g. `:0`); default: found (`findGraphicalSession`), or `AGENT_DISPLAY`. */
  display?: string;
}

/**
 * The lab machine's screen (docs/design.md section 6a). Linux: a zenity dialog on the logged-in user's X
 * display, run as that user when the agent is root, closing by itself when the message expires; shown
 * once the dialog stays up `SHOWN_AFTER_MS`, seen when the contestant closes it (exit 0 or 1; 5 is
 * zenity's timeout). Without zenity, `notify-send` (shown, never told seen). Windows: the session's
 * message box (`msg.exe *`), shown when it was sent, never told seen. What could not be shown says
 * why (`ShowOutcome`); the push channel reports it and tries again (policy-socket.ts).
 */
export function desktopMessageScreen(options: DesktopMessageScreenOptions = {}): MessageScreen {
  const screen = {
    show(message: AgentMessage, title = MESSAGE_WINDOW_TITLE): MessageShowing {
      if (process.platform === 'win32') return windowsMessage(message);
      let resolveShown!: (outcome: ShowOutcome) => void;
      let resolveClosed!: (seen: boolean) => void;
      const shown = new Promise<ShowOutcome>((resolve) => (resolveShown = resolve));
      const closed = new Promise<boolean>((resolve) => (resolveClosed = resolve));
      const failed = (reason: string) => {
        resolveShown({ shown: false, reason });
        resolveClosed(false);
      };
      void (async () => {
        const session = await graphicalSession(options.display ?? process.env.AGENT_DISPLAY);
        if (!session || !(await displayReachable(session.display))) return failed(TEXTS.messageNoSession);
        const seconds = Math.max(1, Math.round((Date.parse(message.expires_at) - Date.now()) / 1000));
        const dialog = spawn(
          'zenity',
          [
            '--info',
            '--no-markup',
            '--title',
            title,
            '--text',
            message.text,
            '--ok-label',
            MESSAGE_OK_LABEL,
            '--width',
            '480',
            '--timeout',
            String(seconds),
          ],
          sessionSpawnOptions(session),
        );
        let exited = false;
        const timer = setTimeout(() => {
          if (!exited) resolveShown({ shown: true });
        }, SHOWN_AFTER_MS);
        dialog.once('error', () => {
          exited = true;
          clearTimeout(timer);
          // No zenity: a notification at least (shown, never told seen).
          const notify = spawn('notify-send', [title, message.text], sessionSpawnOptions(session));
          notify.once('error', () => failed(TEXTS.messageNoZenity));
          notify.once('exit', (code) =>
            code === 0 ? resolveShown({ shown: true }) : failed(TEXTS.messageNoZenity),
          );
          resolveClosed(false);
        });
        const started = Date.now();
        dialog.once('exit', (code) => {
          exited = true;
          clearTimeout(timer);
          // Gone before it could be read: it never opened (no display, no permission).
          if (Date.now() - started < SHOWN_AFTER_MS) return failed(TEXTS.messageClosedAtOnce(code));
          resolveClosed(code === 0 || code === 1);
        });
      })();
      return { shown, closed };
    },
  };
  return {
    show: (message) => screen.show(message),
    notice: (message) => screen.show(message, NOTICE_WINDOW_TITLE),
  };
}

/**
 * Whether a local X display (`:N` or `:N.M`) has its server's socket in `/tmp/.X11-unix`. zenity on a
 * display with no server fails within a few ms on an idle machine, but on a loaded one it can outlive
 * `SHOWN_AFTER_MS` and then its exit (1) would read as «visto»: no socket is «sin sesión gráfica» at
 * once. A remote display (`host:N`) is not checked here.
 */
export async function displayReachable(display: string): Promise<boolean> {
  const local = /^:(\d+)(?:\.\d+)?$/.exec(display);
  if (!local) return true;
  try {
    await stat(`/tmp/.X11-unix/X${local[1]}`);
    return true;
  } catch {
    return false;
  }
}

/** Windows: `msg.exe * /TIME:<s> <text>` shows it in every session; it does not say when it was closed. */
function windowsMessage(message: AgentMessage): MessageShowing {
  const seconds = Math.max(1, Math.round((Date.parse(message.expires_at) - Date.now()) / 1000));
  const shown = new Promise<ShowOutcome>((resolve) => {
    const child = spawn('msg.exe', ['*', `/TIME:${seconds}`, message.text], { windowsHide: true });
    child.once('error', () => resolve({ shown: false, reason: TEXTS.messageWindowsFailed(null) }));
    child.once('exit', (code) =>
      resolve(code === 0 ? { shown: true } : { shown: false, reason: TEXTS.messageWindowsFailed(code) }),
    );
  });
  return { shown, closed: shown.then(() => false) };
}

/** The environment and user a dialog of `session` runs with. */
export function sessionSpawnOptions(session: GraphicalSession) {
  const runtime = session.uid !== undefined ? `/run/user/${session.uid}` : process.env.XDG_RUNTIME_DIR;
  return {
    stdio: 'ignore' as const,
    ...(session.uid !== undefined && process.getuid?.() === 0 ? { uid: session.uid, gid: session.gid } : {}),
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      // GTK refuses text it cannot convert: without a UTF-8 locale (a service's environment has none)
      // zenity exits at once on any accent, ñ, ¿ or ¡, which Spanish messages nearly always carry.
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      DISPLAY: session.display,
      ...(session.home ? { HOME: session.home, XAUTHORITY: `${session.home}/.Xauthority` } : {}),
      ...(runtime ? { XDG_RUNTIME_DIR: runtime, DBUS_SESSION_BUS_ADDRESS: `unix:path=${runtime}/bus` } : {}),
    },
  };
}

/**
 * The graphical session a message goes to: `display` when given (run as the agent's own user), else
 * the active X11 session logind knows (its display and user), else the first X server socket in
 * `/tmp/.X11-unix` (its owner as the user). Null when there is none.
 */
export async function graphicalSession(display?: string): Promise<GraphicalSession | null> {
  if (display) return { display };
  try {
    const { stdout } = await run('loginctl', ['list-sessions', '--no-legend'], { timeout: 2_000 });
    for (const id of stdout
      .split('\n')
      .map((line) => line.trim().split(/\s+/)[0])
      .filter(Boolean)) {
      const { stdout: props } = await run(
        'loginctl',
        ['show-session', id!, '-p', 'Display', '-p', 'Active', '-p', 'User', '-p', 'Type'],
        { timeout: 2_000 },
      );
      const value = (name: string) => new RegExp(`^${name}=(.*)$`, 'm').exec(props)?.[1]?.trim() ?? '';
      if (value('Active') === 'yes' && value('Display'))
        return userSession(value('Display'), Number(value('User')));
    }
  } catch {
    // No logind (a container, a minimal system): the X sockets below.
  }
  try {
    const sockets = (await readdir('/tmp/.X11-unix')).filter((name) => /^X\d+$/.test(name)).sort();
    for (const name of sockets) {
      const info = await stat(`/tmp/.X11-unix/${name}`);
      return userSession(`:${name.slice(1)}`, info.uid);
    }
  } catch {
    // No X server.
  }
  return null;
}

/** A session of display `display` run by user `uid`, with that user's group and home (from `getent`). */
async function userSession(display: string, uid: number): Promise<GraphicalSession> {
  if (!Number.isInteger(uid) || uid === 0) return { display };
  try {
    const { stdout } = await run('getent', ['passwd', String(uid)], { timeout: 2_000 });
    const [, , , gid, , home] = stdout.trim().split(':');
    return { display, uid, gid: Number(gid), home };
  } catch {
    return { display, uid };
  }
}
