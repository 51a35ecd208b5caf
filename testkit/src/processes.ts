import type { ChildProcess } from 'node:child_process';
import path from 'node:path';

/**
 * Small process helpers shared by the instance helpers of this package (MariaDB, Redis, server
 * processes a test or measurement starts itself).
 */

/**
 * A service daemon a test starts itself (`mariadb-instance.ts`, `redis-instance.ts`) on a free
 * loopback port, and may crash, freeze and start again without touching the shared one.
 */
export interface DaemonInstance {
  readonly port: number;
  /** True while the daemon runs (frozen included). */
  readonly running: boolean;
  /** Ends it with SIGKILL (a crash: no shutdown) and waits for it. */
  kill(): Promise<void>;
  /** Starts it again on the same port and folder; resolves once it answers. */
  start(): Promise<void>;
  /** SIGSTOP: it keeps its sockets open but answers nothing (a hung service). */
  freeze(): void;
  /** SIGCONT after `freeze`. */
  thaw(): void;
  /** The last `lines` lines it logged (for failure messages). */
  logTail(lines?: number): string;
  /** Kills it and removes its folder. Idempotent; also runs when the test process exits. */
  destroy(): Promise<void>;
}

/**
 * The environment for the database and Redis binaries: the test's own, with the usual system
 * folders of daemons (`sbin`) after its PATH, where distributions put `mariadbd` and which a
 * non-root PATH often lacks. Binaries are still looked up by name.
 */
export function toolEnv(): NodeJS.ProcessEnv {
  const extra = ['/usr/local/sbin', '/usr/sbin', '/sbin'];
  const current = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  return {
    ...process.env,
    PATH: [...current, ...extra.filter((dir) => !current.includes(dir))].join(path.delimiter),
  };
}

/** Resolves when `child` has exited (at once when it already has). */
export function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

const exitHooks = new Set<() => void>();
let listening = false;

/**
 * Runs `hook` (synchronously) when the test process exits, so a failed or interrupted test leaves no
 * daemon or temporary folder behind. Answers a function that unregisters it.
 */
export function onProcessExit(hook: () => void): () => void {
  exitHooks.add(hook);
  if (!listening) {
    listening = true;
    process.once('exit', () => {
      for (const run of exitHooks) {
        try {
          run();
        } catch {
          // Best effort: the process is exiting anyway.
        }
      }
    });
  }
  return () => exitHooks.delete(hook);
}

/**
 * Keeps the last `max` lines written to a stream, for failure messages. `format` may rewrite each line
 * (e.g. shorten a JSON log line); a line equal to the previous one is counted rather than repeated.
 */
export class LineTail {
  private readonly lines: Array<{ text: string; count: number }> = [];
  private partial = '';

  constructor(
    private readonly max = 200,
    private readonly format: (line: string) => string = (line) => line,
  ) {}

  /** Appends a chunk of output. */
  push(chunk: Buffer | string): void {
    const parts = (this.partial + chunk.toString()).split('\n');
    this.partial = parts.pop() ?? '';
    for (const part of parts) {
      const text = this.format(part);
      const last = this.lines.at(-1);
      if (last && last.text === text) last.count += 1;
      else this.lines.push({ text, count: 1 });
    }
    if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
  }

  /** The kept lines (the last `count` of them), newline-joined. */
  text(count = this.max): string {
    return [
      ...this.lines.map((line) => (line.count > 1 ? `${line.text} (×${line.count})` : line.text)),
      ...(this.partial ? [this.format(this.partial)] : []),
    ]
      .slice(-count)
      .join('\n');
  }
}

const PINO_LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/**
 * Shortens a pino JSON log line to `level msg — ErrorType: message` (no time, pid or stack), so equal
 * errors collapse in a `LineTail`; other lines are kept as they are.
 */
export function shortLogLine(line: string): string {
  if (!line.startsWith('{')) return line;
  try {
    const entry = JSON.parse(line) as {
      level?: number;
      msg?: string;
      err?: { type?: string; message?: string };
    };
    const err = entry.err ? ` — ${entry.err.type ?? 'Error'}: ${entry.err.message ?? ''}` : '';
    return `${PINO_LEVELS[entry.level ?? 30] ?? entry.level} ${entry.msg ?? ''}${err}`;
  } catch {
    return line;
  }
}
