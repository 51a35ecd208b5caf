import { spawn, type ChildProcess } from 'node:child_process';
import { repoRoot } from './environment.js';
import { LineTail, exitOf, onProcessExit, shortLogLine } from './processes.js';
import { SERVER_ENTRY, ensureServerBuilt } from './server-build.js';

/**
 * A real server process (`node server/dist/server.js`, what `npm start` runs once built, without its
 * heap cap) that a test
 * starts, kills and starts again on the same port.
 */
export interface ServerProcess {
  readonly port: number;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The process id of the current (or last) run, e.g. to sample its CPU from /proc. */
  readonly pid: number | undefined;
  /** True while the process runs. */
  readonly alive: boolean;
  /** How the last run ended (`code 1`, `signal SIGKILL`), or null while it runs. */
  readonly exit: string | null;
  /** Starts the process (again) with the same port and environment; resolves once `/api/health` answers 200. */
  start(): Promise<void>;
  /** Ends the process with `signal` (default SIGKILL: a crash) and waits for it. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Stops it gracefully (SIGTERM), with SIGKILL after `graceMs` (ms, default 5 000). Idempotent. */
  stop(graceMs?: number): Promise<void>;
  /**
   * The last lines the process wrote (stdout and stderr, of every run, JSON log lines shortened and
   * repeats counted), with the test's notes between them, for failure messages.
   */
  output(lines?: number): string;
  /** Adds a timestamped line of the test's own to `output` (e.g. when a fault began). */
  note(text: string): void;
}

/** Options of `startServerProcess`. */
export interface ServerProcessOptions {
  port: number;
  /** Variables set on top of the test's environment (DATABASE_URL, REDIS_URL, JWT_SECRET...). */
  env: Record<string, string>;
  /** How long `start()` waits for health 200, in ms (default 60 000). */
  readyTimeoutMs?: number;
  /** Working folder (default: the repository root). */
  cwd?: string;
  /** Node flags before the script (e.g. `--cpu-prof`). */
  nodeFlags?: string[];
  /** Where the process's output goes besides `output()`, line by line (e.g. a measurement's log). */
  onLine?: (line: string) => void;
}

/**
 * Starts a server process (building server/dist first when the sources changed) and waits until it
 * is healthy.
 * @throws when it exits while starting or is not healthy within `readyTimeoutMs`.
 */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const { port } = options;
  const url = `http://127.0.0.1:${port}`;
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const output = new LineTail(300, shortLogLine);
  let child: ChildProcess | undefined;
  const alive = () => Boolean(child && child.exitCode === null && child.signalCode === null);
  const removeExitHook = onProcessExit(() => {
    if (alive()) child!.kill('SIGKILL');
  });

  const start = async () => {
    if (alive()) throw new Error(`the server on ${port} is already running`);
    await ensureServerBuilt();
    const run = spawn(process.execPath, [...(options.nodeFlags ?? []), SERVER_ENTRY], {
      cwd: options.cwd ?? repoRoot,
      env: { ...process.env, ...options.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = run;
    output.push(`[${new Date().toISOString()} process ${port} started]\n`);
    const onChunk = (chunk: Buffer) => {
      output.push(chunk);
      if (options.onLine) {
        for (const line of chunk.toString().split('\n'))
          if (line.trim()) options.onLine(`[server :${port}] ${line}`);
      }
    };
    run.stdout!.on('data', onChunk);
    run.stderr!.on('data', onChunk);
    run.once('exit', (code, signal) =>
      output.push(`[${new Date().toISOString()} process ${port} ended: ${signal ?? `code ${code}`}]\n`),
    );
    const deadline = Date.now() + readyTimeoutMs;
    for (;;) {
      if (run.exitCode !== null || run.signalCode !== null) {
        throw new Error(`the server on ${port} exited while starting:\n${output.text(30)}`);
      }
      const status = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) })
        .then((res) => res.status)
        .catch(() => 0);
      if (status === 200) return;
      if (Date.now() > deadline) {
        throw new Error(`the server on ${port} was not healthy in ${readyTimeoutMs} ms:\n${output.text(30)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    const current = child;
    if (!current || !alive()) return;
    const exited = exitOf(current);
    current.kill(signal);
    await exited;
  };

  try {
    await start();
  } catch (err) {
    await kill();
    removeExitHook();
    throw err;
  }

  return {
    port,
    url,
    get pid() {
      return child?.pid;
    },
    get alive() {
      return alive();
    },
    get exit() {
      if (!child || alive()) return null;
      return child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`;
    },
    start,
    kill,
    async stop(graceMs = 5_000) {
      const current = child;
      if (current && alive()) {
        const exited = exitOf(current);
        current.kill('SIGTERM');
        const timer = setTimeout(() => current.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      removeExitHook();
    },
    output: (lines = 60) => output.text(lines),
    note: (text) => output.push(`[${new Date().toISOString()} ${text}]\n`),
  };
}
