import type { CaptureRow } from '@concurso/shared';

/**
 * The «Ver pantalla» calls of this process waiting for their captures, by request id: an upload
 * stored here wakes its waiter at once; one stored by another server process is found by the
 * waiter's own reads of the table (`poll`).
 */
export class CaptureWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();

  /** A capture of request `requestId` was stored in this process. */
  arrived(requestId: string): void {
    this.waiting.get(requestId)?.forEach((wake) => wake());
  }

  /**
   * Answers the captures of `requestId` once `expected` arrived, or `othersMs` after the first one,
   * or at `timeoutMs` (ms) with what there is (maybe none). `read` reads them from the database; it
   * runs at each wake-up and every `pollMs` (0: only at wake-ups, a single server process).
   */
  async wait(
    requestId: string,
    options: {
      expected: number;
      timeoutMs: number;
      othersMs: number;
      pollMs: number;
      read: () => Promise<CaptureRow[]>;
    },
  ): Promise<CaptureRow[]> {
    const started = Date.now();
    let found: CaptureRow[] = [];
    let firstAt: number | null = null;
    let wake: () => void = () => {};
    // Set by an arrival between a read and the pause: read again at once instead of sleeping.
    let signalled = false;
    const listeners = this.waiting.get(requestId) ?? new Set();
    this.waiting.set(requestId, listeners);
    const listener = () => {
      signalled = true;
      wake();
    };
    listeners.add(listener);
    try {
      for (;;) {
        signalled = false;
        found = await options.read();
        const now = Date.now();
        if (found.length > 0) firstAt ??= now;
        if (found.length >= options.expected) return found;
        const deadline = Math.min(
          started + options.timeoutMs,
          firstAt === null ? Infinity : firstAt + options.othersMs,
        );
        if (now >= deadline) return found;
        if (signalled) continue;
        const pause = options.pollMs > 0 ? Math.min(options.pollMs, deadline - now) : deadline - now;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pause);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } finally {
      listeners.delete(listener);
      if (listeners.size === 0) this.waiting.delete(requestId);
    }
  }
}
