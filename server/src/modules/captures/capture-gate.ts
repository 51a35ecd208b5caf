/**
 * How many uploads a process stores at once, and how long one may wait for its turn
 * (README.md "Uploads at once"). Each stored capture holds a connection of the ORM's pool for its
 * checks and its transaction and a thread of sharp's; admitted without a bound, a burst past what the
 * machine stores a second left hundreds of uploads half done at once, every one slower, their
 * transactions holding the pool's connections while the event loop caught up, and the pool's waiters
 * answered 503 after `DB_ACQUIRE_TIMEOUT_MS` (bench/BENCHMARKS.md, captures through the route).
 */

/** Uploads stored at once in one process (the best of 4 and 12 measured; the pool has 20 connections). */
const CAPTURE_STORES_AT_ONCE = 4;
/**
 * Longest wait of an upload for its turn (ms): past it the upload is answered 429 with `Retry-After`
 * and the agent keeps it and sends it again (agent/src/capture-uploads.ts). Below the agent's 10 s
 * request timeout, so the answer arrives with time left for the storing itself.
 */
export const CAPTURE_TURN_WAIT_MS = 5_000;

/** One upload waiting for its turn. */
interface Waiter {
  urgent: boolean;
  start: () => void;
  timer: NodeJS.Timeout;
}

/**
 * A turnstile: at most `atOnce` holders, the others waiting in arrival order at most `maxWaitMs`
 * each. The sockets' bytes and the JSON parse are not behind it, only the storing.
 */
export class CaptureGate {
  private holders = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly atOnce = CAPTURE_STORES_AT_ONCE,
    private readonly maxWaitMs = CAPTURE_TURN_WAIT_MS,
  ) {}

  /**
   * Waits for a turn: true once it holds one (`leave` must follow, in a `finally`), false when none
   * came within `maxWaitMs` (it holds nothing). An `urgent` one (a «Ver pantalla» capture, a judge
   * waiting for it at most `VIEW_SCREEN_WAIT_MS`) goes before every waiter that is not.
   */
  enter(urgent = false): Promise<boolean> {
    if (this.holders < this.atOnce) {
      this.holders += 1;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        urgent,
        start: () => {
          clearTimeout(waiter.timer);
          resolve(true);
        },
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          resolve(false);
        }, this.maxWaitMs),
      };
      const after = urgent ? this.waiting.findIndex((other) => !other.urgent) : -1;
      if (after === -1) this.waiting.push(waiter);
      else this.waiting.splice(after, 0, waiter);
    });
  }

  /** Gives the turn to the oldest waiter, or frees it. */
  leave(): void {
    const next = this.waiting.shift();
    if (next) next.start();
    else this.holders -= 1;
  }
}
