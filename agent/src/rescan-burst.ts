/**
 * Fast rescans after a kill (agent/src/README.md, «Una familia entera»): a program started again
 * right after it was ended (a restart loop) is seen within `RESCAN_EVERY_MS` instead of at the next
 * poll. For `RESCAN_FOR_MS` after the last kill the scan runs every `RESCAN_EVERY_MS`, but only when
 * the machine's pid list changed (one listing of /proc, about 0.1 ms): a quiet machine costs almost
 * nothing, and the burst ends a second after the kills stop.
 */
import { readdirSync } from 'node:fs';
import { Periodic } from './periodic.js';

/** Time between two rescans of a burst (ms). */
const RESCAN_EVERY_MS = 40;

/** How long a burst goes on after the last kill (ms). */
export const RESCAN_FOR_MS = 1_000;

/**
 * Whether the pids listed in `root` changed since the last call (Linux). Where /proc cannot be
 * listed it always answers true (every rescan scans).
 */
function pidListChanged(root = '/proc'): () => boolean {
  let last: string | null = null;
  return () => {
    let now: string;
    try {
      now = readdirSync(root)
        .filter((name) => name.charCodeAt(0) >= 48 && name.charCodeAt(0) <= 57)
        .join(' ');
    } catch {
      return true;
    }
    const changed = now !== last;
    last = now;
    return changed;
  };
}

/** Runs `scan` often for a while after each `kick()`. */
export class RescanBurst {
  private until = 0;
  /** Whether a burst is going (a rescan waits or runs). */
  private going = false;
  /** The rescans; a scan's failure is ignored here (the poll loop reports scan failures). */
  private readonly loop = new Periodic(() => undefined);

  /**
   * @param scan one scan (the running agent's poll).
   * @param changed whether anything started or ended since the last look; default `pidListChanged()`.
   */
  constructor(
    private readonly scan: () => Promise<void>,
    private readonly changed: () => boolean = pidListChanged(),
  ) {}

  /** A kill happened: rescan every `RESCAN_EVERY_MS` until `RESCAN_FOR_MS` from now. */
  kick(): void {
    this.until = Date.now() + RESCAN_FOR_MS;
    if (this.going) return;
    this.going = true;
    this.loop.every(
      async () => {
        if (this.changed()) await this.scan();
      },
      () => {
        if (Date.now() < this.until) return RESCAN_EVERY_MS;
        this.going = false;
        return null;
      },
      RESCAN_EVERY_MS,
      { fromEnd: true },
    );
  }

  /** Stops the burst; answers the rescan in progress, if any, to wait on. */
  async stop(): Promise<void> {
    await Promise.all(this.loop.stop());
  }
}
