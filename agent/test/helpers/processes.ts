/**
 * Real processes for the agent's tests: a system binary copied under a blocked-looking name (so
 * `/proc/<pid>/exe` ends in that name), spawned as a child of the test. Each copy gets a build-id of
 * its own and random bytes appended (it still runs): its SHA-256, its similarity digest and its
 * build-id are its own, so a fingerprint or a likeness an agent learns from it names only this test's
 * executables, never `/bin/sleep` itself, which an agent running as root would then end everywhere on
 * the machine.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmod, copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readBuildId } from '../../src/build-id.js';
import { procLister } from '../../src/proc-lister.js';
import type { ProcessLister } from '../../src/scanner.js';

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
 * Random bytes appended to each test binary (bytes): more than /bin/sleep's own size, so the copy's
 * similarity digest (agent/src/similarity.ts) lies far from /bin/sleep's and from any other copy's.
 */
const OWN_BYTES = 64 * 1024;

/**
 * Copies `source` (default /bin/sleep) into a temp folder as `name`, with a build-id of its own and
 * `OWN_BYTES` random bytes appended (a fingerprint, a similarity digest and a build-id of its own, see
 * above: an agent that learned it never takes /bin/sleep or another test's copy for it); answers the
 * new path.
 */
export async function blockedBinary(name: string, source = '/bin/sleep'): Promise<string> {
  const file = path.join(await tempDir('agent-bin-'), name);
  await writeFile(file, Buffer.concat([await withOwnBuildId(source), randomBytes(OWN_BYTES)]));
  await chmod(file, 0o755);
  return file;
}

/**
 * The bytes of an ELF file with its GNU build-id (agent/src/build-id.ts) replaced by random bytes of
 * the same length (the program runs the same: nothing checks it); other files as they are.
 */
export async function withOwnBuildId(file: string): Promise<Buffer> {
  const bytes = await readFile(file);
  const id = await readBuildId(file);
  if (id) {
    const at = bytes.indexOf(Buffer.from(id, 'hex'));
    if (at >= 0) randomBytes(id.length / 2).copy(bytes, at);
  }
  return bytes;
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

/**
 * The real process list as the agent reads it on Linux (`/proc`, agent/src/proc-lister.ts), narrowed to
 * this test process's children (leaves other tests' alone). One lister for the whole test process: what
 * it remembers between calls only orders the next read (new pids first). Not ps-list: its two `ps` per
 * call cost about 115 ms of CPU with a browser's processes on the machine, against about 3 ms here.
 */
export const ownChildren: ProcessLister = (() => {
  const all = procLister();
  return async () => (await all()).filter((p) => p.ppid === process.pid);
})();

/**
 * A lister of the programs this test started with `spawnProcess` and that still run, read from `/proc`
 * (agent/src/proc-lister.ts, the agent's own lister on Linux): what a lab machine's agent would see of
 * the test's programs, and nothing else of the test process's children. `ownChildren` lists those
 * too: the browser of a journey (Chromium, about 300 MB), its X server, the bundler's service. An
 * agent that learned a fingerprint hashes every process it lists, so with `ownChildren` each agent of a
 * journey read Chromium whole (10 s on a loaded machine, holding one of its two hashing slots) after
 * its first kill. One per agent (the lister remembers the pids it saw, to read new ones first). Linux
 * only.
 */
export function spawnedByTest(): ProcessLister {
  const all = procLister();
  return async () => {
    const pids = new Set([...children].map((child) => child.pid));
    return (await all()).filter((p) => p.ppid === process.pid && pids.has(p.pid));
  };
}

/** Kills leftover children and removes temp folders. */
export async function cleanUp(): Promise<void> {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  // Retried: a file an ending agent still writes (its outbox, its saved config) can make a folder
  // non-empty again between the removal of its files and its own (ENOTEMPTY).
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 5 })));
}
