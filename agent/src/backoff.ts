/**
 * Exponential backoff for retrying the server: 1 s, 2 s, 4 s... up to a cap, with some jitter so a
 * lab full of agents does not hit a restarted server in the same instant.
 */

export interface BackoffOptions {
  /** First delay (ms). Default 1000. */
  baseMs?: number;
  /** Longest delay (ms). Default 30000. */
  capMs?: number;
  /** Fraction of the delay taken off at random (0..1). Default 0.2. */
  jitter?: number;
  /** Random source in [0, 1) (tests). */
  random?: () => number;
  /** Clock in ms (tests). */
  now?: () => number;
}

/** Tracks consecutive failures and when the next try is due. */
export class Backoff {
  private failures = 0;
  private dueAt = 0;
  private readonly baseMs: number;
  private readonly capMs: number;
  private readonly jitter: number;
  private readonly random: () => number;
  private readonly now: () => number;

  constructor(options: BackoffOptions = {}) {
    this.baseMs = options.baseMs ?? 1_000;
    this.capMs = options.capMs ?? 30_000;
    this.jitter = options.jitter ?? 0.2;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  /** Records a failure; answers the delay before the next try (ms). */
  fail(): number {
    this.failures += 1;
    const full = Math.min(this.capMs, this.baseMs * 2 ** Math.min(this.failures - 1, 30));
    const delay = Math.round(full * (1 - this.jitter * this.random()));
    this.dueAt = this.now() + delay;
    return delay;
  }

  /**
   * Records a failure after which the server asked to wait at least `minMs` (a 429's `Retry-After`,
   * in ms); answers the delay before the next try (ms), never shorter than `minMs`.
   */
  failAtLeast(minMs: number): number {
    const delay = Math.max(this.fail(), minMs);
    this.dueAt = this.now() + delay;
    return delay;
  }

  /** Records a success: the next failure starts again from the first delay. */
  succeed(): void {
    this.failures = 0;
    this.dueAt = 0;
  }

  /** Whether a try is allowed now. */
  get due(): boolean {
    return this.now() >= this.dueAt;
  }

  /** Consecutive failures so far. */
  get failureCount(): number {
    return this.failures;
  }
}
