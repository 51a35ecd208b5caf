/** Shortest pause between two runs of a task, even when a run ended late (ms). */
const MIN_GAP_MS = 50;

/**
 * The agent's loops (poll, heartbeat, config refresh, probe, observed report, the new-process watch,
 * the rescans after a kill): each task reschedules itself after it finishes, so a slow round never piles
 * up. By default the next run comes `delayMs()` after the last one started (at least `MIN_GAP_MS` after
 * it ended); with `fromEnd`, `delayMs()` after it ended. A task's failure is handed to `onError` and the
 * loop goes on.
 */
export class Periodic {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(private readonly onError: (error: unknown) => void) {}

  /**
   * Runs `task` first after `firstDelayMs`, then again after `delayMs()` (read again after each run),
   * until `stop()`. A `delayMs()` of null ends this loop there (the others go on; a later `every` starts
   * it again). `fromEnd`: the pause counts from the end of a run instead of its start, with no
   * `MIN_GAP_MS` (for a look that leaves the machine that long alone after each run, however long the
   * run took: the new-process watch, the rescans after a kill, at 100 and 40 ms).
   */
  every(
    task: () => Promise<void>,
    delayMs: () => number | null,
    firstDelayMs: number,
    { fromEnd = false }: { fromEnd?: boolean } = {},
  ): void {
    const schedule = (ms: number) => {
      if (this.stopped) return;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        const started = Date.now();
        const run = task()
          .catch(this.onError)
          .finally(() => {
            this.inFlight.delete(run);
            const delay = delayMs();
            if (delay === null) return;
            schedule(fromEnd ? delay : Math.max(MIN_GAP_MS, delay - (Date.now() - started)));
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
