import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './waiting.js';
import { LineTail, exitOf, onProcessExit, toolEnv, type DaemonInstance } from './processes.js';

/**
 * A Redis of a test's own (`redis-server` on a free loopback port, no persistence), so a test may
 * kill or freeze it without touching the shared one on 6379.
 */
export interface RedisInstance extends DaemonInstance {
  /** `redis://127.0.0.1:<port>`. Nothing is persisted: after `kill()` its data is gone. */
  readonly url: string;
}

/** Options of `startRedis`. */
export interface RedisOptions {
  /** Port to listen on (default: a free one). */
  port?: number;
  /** How long to wait for PONG, in ms (default 10 000). */
  readyTimeoutMs?: number;
}

/** Sends PING to 127.0.0.1:`port`; resolves true on `+PONG`, false on anything else within 1 s. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/**
 * Starts a Redis of the test's own. Call `destroy()` when done (an exit hook does it too, should the
 * test process end first).
 * @throws when `redis-server` is missing or does not answer in time.
 */
export async function startRedis(options: RedisOptions = {}): Promise<RedisInstance> {
  const port = options.port ?? (await freePort());
  const readyTimeoutMs = options.readyTimeoutMs ?? 10_000;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'concurso-redis-'));
  const output = new LineTail(100);
  let child: ChildProcess | undefined;
  let destroyed = false;
  const alive = () => Boolean(child && child.exitCode === null && child.signalCode === null);
  const removeExitHook = onProcessExit(() => {
    if (alive()) child!.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async () => {
    if (destroyed) throw new Error('this Redis instance was destroyed');
    if (alive()) throw new Error('redis-server is already running');
    let spawnError: Error | undefined;
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { env: toolEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.once('error', (err) => (spawnError = err));
    child.stdout!.on('data', (chunk) => output.push(chunk));
    child.stderr!.on('data', (chunk) => output.push(chunk));
    const deadline = Date.now() + readyTimeoutMs;
    while (!(await ping(port))) {
      if (spawnError)
        throw new Error(`redis-server could not run (${spawnError.message}); install redis-server.`);
      if (!alive()) throw new Error(`redis-server exited while starting:\n${output.text(20)}`);
      if (Date.now() > deadline)
        throw new Error(`redis-server did not answer PING in ${readyTimeoutMs} ms:\n${output.text(20)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const kill = async () => {
    const current = child;
    if (!current || !alive()) return;
    const exited = exitOf(current);
    current.kill('SIGKILL');
    await exited;
  };

  try {
    await start();
  } catch (err) {
    if (alive()) child!.kill('SIGKILL');
    removeExitHook();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get running() {
      return alive();
    },
    kill,
    start,
    freeze: () => void child?.kill('SIGSTOP'),
    thaw: () => void child?.kill('SIGCONT'),
    logTail: (lines = 30) => output.text(lines),
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      await kill();
      removeExitHook();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
