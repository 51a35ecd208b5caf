/** Shortest pause between two runs of a task, even when a run ended late (ms). */
const MIN_GAP_MS = 50;

/**
 * The agent's loops (poll, heartbeat, config refresh, probe, observed report): each task reschedules
 * itself after it finishes, `delayMs()` after it started (at least `MIN_GAP_MS` later), so a slow round
 * never piles up. A task's failure is handed to `onError` and the loop goes on.
 */
export class Periodic {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Runs `task` first after `firstDelayMs`, then every `delayMs()` (read again each round), until `stop()`. */
  every(task: () => Promise<void>, delayMs: () => number, firstDelayMs: number): void {
    const schedule = (ms: number) => {
      if (this.stopped) return;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        const started = Date.now();
        const run = task()
          .catch(this.onError)
          .finally(() => {
            this.inFlight.delete(run);
            schedule(Math.max(MIN_GAP_MS, delayMs() - (Date.now() - started)));
          });
        this.inFlight.add(run);
      }, ms);
      this.timers.add(timer);
    };
    schedule(firstDelayMs);
  }

  /** Schedules nothing more; answers the runs still going, for the caller to wait on. */
  stop(): Promise<unknown>[] {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    return [...this.inFlight];
  }
}
