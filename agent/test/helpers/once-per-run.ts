import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';

/**
 * Makes one thing once per test run for every test file that asks: files run in separate processes, so
 * a `mkdir` lock `<name>.lock` in the run's folder (agent/test/global-setup.ts, `agentTestRunDir`) says
 * who makes it; the others poll every 500 ms until `ready(root)` says it is there. Used for the agent's
 * shared executables (agent-build.ts) and the Wine template prefix (wine.ts).
 * @param make makes it under the lock, given the run's folder and the ms left before the deadline.
 * @param timeoutMs longest wait, the making included (ms).
 * @param late the error's text when the wait passes `timeoutMs`.
 * @returns the run's folder.
 * @throws `make`'s error (the next caller tries again), or `late` past the deadline.
 */
export async function oncePerRun(
  name: string,
  ready: (root: string) => boolean,
  make: (root: string, msLeft: number) => Promise<void>,
  timeoutMs: number,
  late: string,
): Promise<string> {
  const root = inject('agentTestRunDir');
  const lock = path.join(root, `${name}.lock`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (ready(root)) return root;
    if (Date.now() > deadline) throw new Error(late);
    try {
      await mkdir(lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // Another file makes it: wait for it.
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    try {
      if (ready(root)) return root;
      await make(root, Math.max(1, deadline - Date.now()));
      return root;
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}
