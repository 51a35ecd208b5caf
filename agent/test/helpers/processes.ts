/**
 * Real processes for the agent's tests: a system binary copied under a blocked-looking name (so
 * `/proc/<pid>/exe` ends in that name), spawned as a child of the test. Each copy gets random bytes
 * appended (it still runs): its SHA-256 is its own, so a fingerprint a server learns from it (issue
 * 14) names only this test's executables, never `/bin/sleep` itself, which an agent running as root
 * would then end everywhere on the machine.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { appendFile, chmod, copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { psListLister, type ProcessLister } from '../../src/scanner.js';

export interface Spawned {
  child: ChildProcess;
  pid: number;
  /** Resolves when the child exits, with how it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const dirs: string[] = [];
const children = new Set<ChildProcess>();

/** A blocked-looking name unique to this run, so parallel tests never end each other's processes. */
export function uniqueName(base: string): string {
  return `${base}-${randomBytes(3).toString('hex')}`;
}

/** A fresh temporary folder, removed by `cleanUp`. */
export async function tempDir(prefix = 'agent-test-'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/**
 * Copies `source` (default /bin/sleep) into a temp folder as `name`, with 32 random bytes appended
 * (a fingerprint of its own, see above); answers the new path.
 */
export async function blockedBinary(name: string, source = '/bin/sleep'): Promise<string> {
  const file = path.join(await tempDir('agent-bin-'), name);
  await copyFile(source, file);
  await appendFile(file, randomBytes(32));
  await chmod(file, 0o755);
  return file;
}

/** The SHA-256 of a file's bytes in hex, read whole: what the agent's fingerprint must equal. */
export async function sha256Of(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}

/** A copy of `file` (same bytes, same fingerprint) under another name: a renamed program. */
export async function renamedCopy(file: string, name: string): Promise<string> {
  const copy = path.join(await tempDir('agent-renamed-'), name);
  await copyFile(file, copy);
  await chmod(copy, 0o755);
  return copy;
}

/** Spawns a binary and waits until it runs (exec done: its /proc entry shows the new executable). */
export async function spawnProcess(
  file: string,
  args: string[],
  options: SpawnOptions = {},
): Promise<Spawned> {
  const child = spawn(file, args, { stdio: 'ignore', ...options });
  children.add(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    });
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  return { child, pid: child.pid!, exited };
}

/** Resolves with `promise`, or rejects when it takes longer than `ms` (ms). */
export function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no ocurrió en ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** Whether the child is still running (not exited, not a zombie). */
export function running(spawned: Spawned): boolean {
  return spawned.child.exitCode === null && spawned.child.signalCode === null;
}

/** The real process list, narrowed to this test process's children (leaves other tests' alone). */
export const ownChildren: ProcessLister = async () =>
  (await psListLister()).filter((p) => p.ppid === process.pid);

/** Kills leftover children and removes temp folders. */
export async function cleanUp(): Promise<void> {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}
