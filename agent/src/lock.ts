/**
 * One agent per team and data folder. Two agents of the same team on one machine would each end the
 * same process and each report it with its own event id, counting one attempt twice; they would also
 * overwrite each other's outbox. A lock file holding the owner's pid prevents that; a lock left by an
 * agent that died (or by a previous boot) is taken over.
 */
import { open, readFile, rm } from 'node:fs/promises';
import { uptime } from 'node:os';
import { isAlive } from './killer.js';

interface LockOwner {
  pid: number;
  /** When the owner took the lock (ms since epoch). */
  since: number;
}

/** Lock files held by this process (a second `startAgent` in the same process must be refused too). */
const heldHere = new Set<string>();

/** Thrown when another live agent holds the lock. */
export class LockHeldError extends Error {
  override readonly name = 'LockHeldError';

  constructor(readonly pid: number) {
    super(`lock held by pid ${pid}`);
  }
}

/** A held lock file; `release` removes it. */
export class AgentLock {
  private constructor(readonly file: string) {}

  /** Takes the lock in `file`, or throws `LockHeldError` when a live agent holds it. */
  static async acquire(file: string): Promise<AgentLock> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const handle = await open(file, 'wx');
        try {
          const owner: LockOwner = { pid: process.pid, since: Date.now() };
          await handle.writeFile(JSON.stringify(owner));
        } finally {
          await handle.close();
        }
        heldHere.add(file);
        return new AgentLock(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = await readOwner(file);
      if (owner && ownerIsRunning(owner, file)) throw new LockHeldError(owner.pid);
      // Stale: its owner is gone. Remove it and try again.
      await rm(file, { force: true });
    }
    throw new LockHeldError(0);
  }

  /** Gives the lock up. */
  async release(): Promise<void> {
    heldHere.delete(this.file);
    await rm(this.file, { force: true });
  }
}

async function readOwner(file: string): Promise<LockOwner | null> {
  try {
    const data = JSON.parse(await readFile(file, 'utf8')) as Partial<LockOwner>;
    if (typeof data.pid === 'number' && typeof data.since === 'number')
      return { pid: data.pid, since: data.since };
  } catch {
    // Unreadable or half-written: treated as stale.
  }
  return null;
}

function ownerIsRunning(owner: LockOwner, file: string): boolean {
  if (owner.pid === process.pid) return heldHere.has(file);
  // Pids restart at every boot; a lock older than the boot belongs to a dead agent.
  const bootedAt = Date.now() - uptime() * 1000;
  if (owner.since < bootedAt) return false;
  return isAlive(owner.pid);
}
