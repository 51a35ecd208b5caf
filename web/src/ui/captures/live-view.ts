/** What a {@link LiveView} reports. */
export interface LiveViewListener<T> {
  result(value: T): void;
  error(error: unknown): void;
  /** Whether a request is in flight (the dialog's spinner). */
  busy(inFlight: boolean): void;
}

/** Timers a {@link LiveView} uses (the browser's by default; a test passes fake ones). */
export interface LiveViewTimers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const browserTimers: LiveViewTimers = {
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * «Ver pantalla» and «Ver en vivo»: `request()` asks once; `live(true)` asks again `everyMs` (ms) after
 * each answer (or failure) until `live(false)` or `dispose()`. Never more than one request in flight:
 * a request while one runs is not sent (the answer on its way serves it), and the next live one is
 * timed from the end of the last, so a slow machine is asked less often rather than piled on.
 */
export class LiveView<T> {
  private inFlight: AbortController | null = null;
  private timer: unknown = null;
  private isLive = false;
  private disposed = false;

  constructor(
    private readonly ask: (signal: AbortSignal) => Promise<T>,
    private readonly listener: LiveViewListener<T>,
    private readonly everyMs: number,
    private readonly timers: LiveViewTimers = browserTimers,
  ) {}

  /** Asks now, unless a request is in flight. */
  request(): void {
    if (this.inFlight || this.disposed) return;
    if (this.timer !== null) {
      this.timers.clearTimeout(this.timer);
      this.timer = null;
    }
    const controller = new AbortController();
    this.inFlight = controller;
    this.listener.busy(true);
    this.ask(controller.signal).then(
      (value) => this.settle(controller, () => this.listener.result(value)),
      (error: unknown) => this.settle(controller, () => this.listener.error(error)),
    );
  }

  /** Turns «Ver en vivo» on (asking at once when idle) or off. */
  live(on: boolean): void {
    this.isLive = on;
    if (on) this.request();
    else if (this.timer !== null) {
      this.timers.clearTimeout(this.timer);
      this.timer = null;
    }
  }

  /** Stops everything: the timer, the request in flight; nothing is reported after. */
  dispose(): void {
    this.disposed = true;
    this.live(false);
    this.inFlight?.abort();
    this.inFlight = null;
  }

  private settle(controller: AbortController, report: () => void): void {
    if (this.inFlight !== controller || this.disposed) return;
    this.inFlight = null;
    this.listener.busy(false);
    report();
    if (this.isLive) {
      this.timer = this.timers.setTimeout(() => {
        this.timer = null;
        this.request();
      }, this.everyMs);
    }
  }
}
