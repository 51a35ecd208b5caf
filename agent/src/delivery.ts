/**
 * Sends the outbox to the server: oldest first, in batches of at most `AGENT_MAX_BATCH`, removing
 * an attempt only once the server acknowledged its `event_id`. On failure it backs off
 * exponentially; since the server counts an `event_id` once, resending after a lost answer is safe.
 * While it backs off after an outage, a cheap probe (`probeServer`) lets it send as soon as the
 * server answers again instead of waiting out a delay of up to 30 s.
 */
import { AGENT_MAX_BATCH } from '@concurso/shared';
import { Backoff } from './backoff.js';
import type { AgentClient } from './client.js';
import { AgentApiError } from './errors.js';
import type { Outbox } from './outbox.js';

/** What one successful batch did. */
export interface BatchSent {
  /** Attempts acknowledged (new or already stored) and removed from the outbox. */
  acknowledged: number;
  /** Attempts the server counted for the first time. */
  counted: number;
  /** The team's total after this batch. */
  numberAttempts: number;
}

/** What a flush did. */
export interface FlushResult {
  /** Attempts acknowledged during this flush. */
  acknowledged: number;
  /** Attempts still waiting. */
  pending: number;
  /** Why it stopped early, when it did. */
  error?: unknown;
}

export interface DeliveryOptions {
  backoff?: Backoff;
  /** Largest batch (default and maximum `AGENT_MAX_BATCH`). */
  batchSize?: number;
  onSent?: (batch: BatchSent) => void;
  /** A batch failed; the next automatic try is in `retryInMs` (ms). */
  onFailed?: (error: unknown, pending: number, retryInMs: number) => void;
  /**
   * Answers whether the server is back and able to store attempts (the agent passes
   * `AgentClient.probe`). Without it `probeServer` does nothing and only the backoff decides.
   */
  probe?: () => Promise<boolean>;
}

/** Moves attempts from the outbox to the server, one send at a time. */
export class Delivery {
  private running: Promise<FlushResult> | null = null;
  /** The last send failed for a reason that passes by itself (network, timeout, 5xx, 429). */
  private transientFailure = false;
  /** The server was seen down since the last send started: by that send's failure or by a probe. */
  private sawServerDown = false;
  /** The send in progress (or the last one) was started by a probe. */
  private sentByProbe = false;
  private readonly backoff: Backoff;
  private readonly batchSize: number;

  constructor(
    private readonly outbox: Outbox,
    private readonly client: AgentClient,
    private readonly options: DeliveryOptions = {},
  ) {
    this.backoff = options.backoff ?? new Backoff();
    this.batchSize = Math.min(Math.max(1, options.batchSize ?? AGENT_MAX_BATCH), AGENT_MAX_BATCH);
  }

  /**
   * Starts a send in the background when there is something to send, none is running and the
   * backoff allows it. Never waits and never throws: callers on the kill path stay fast.
   */
  kick(): void {
    if (this.running || this.outbox.size === 0 || !this.backoff.due) return;
    void this.start();
  }

  /** Sends everything now, ignoring the backoff (after any send in progress). Never throws. */
  async flush(): Promise<FlushResult> {
    while (this.running) await this.running;
    return this.start();
  }

  /**
   * One look at the server while a send waits out the backoff after a transient failure: when the
   * probe says the server is back after it was seen down, the backoff is reset and the queue is sent
   * at once. The agent calls it about every second; it does nothing (no request) otherwise. Answers
   * whether it started a send. Never throws (a probe that throws counts as "down").
   *
   * "Seen down" is a failed send that could not reach the server (no connection, timeout, 502/503/504)
   * or a probe answering false. Why require it: a live server that refused the batch (a 500 from a
   * bug, a 429) answers the probe too, and would otherwise get the batch again every second; such
   * failures keep the backoff. For the same reason a probe-started send that fails again needs a probe
   * to see the server down before the next one. A 401 or 422 never probes: retrying will not help.
   */
  async probeServer(): Promise<boolean> {
    const probe = this.options.probe;
    if (!probe || !this.backingOff) return false;
    const up = await probe().catch(() => false);
    if (!up) {
      this.sawServerDown = true;
      return false;
    }
    // A send may have started (or the queue emptied) while the probe was in flight.
    if (!this.sawServerDown || !this.backingOff) return false;
    this.backoff.succeed();
    void this.start(true);
    return true;
  }

  /** Whether sends wait out the backoff after a transient failure, with something left to send. */
  private get backingOff(): boolean {
    return this.transientFailure && !this.running && this.outbox.size > 0 && !this.backoff.due;
  }

  /** Resolves once no send is in progress. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private start(byProbe = false): Promise<FlushResult> {
    // Each send needs a fresh sighting of the server down before a probe may cut its backoff short.
    this.sawServerDown = false;
    this.sentByProbe = byProbe;
    const run = this.sendAll().finally(() => {
      this.running = null;
    });
    this.running = run;
    return run;
  }

  private async sendAll(): Promise<FlushResult> {
    let acknowledged = 0;
    while (this.outbox.size > 0) {
      const batch = this.outbox.pending().slice(0, this.batchSize);
      try {
        const result = await this.client.postAttempts(batch);
        const sent = new Set(batch.map((a) => a.event_id));
        const accepted = result.accepted.filter((id) => sent.has(id));
        await this.outbox.ack(accepted);
        acknowledged += accepted.length;
        this.backoff.succeed();
        this.transientFailure = false;
        this.options.onSent?.({
          acknowledged: accepted.length,
          counted: result.counted,
          numberAttempts: result.number_attempts,
        });
        // The server kept some back: try them again later rather than in a tight loop.
        if (accepted.length < batch.length) {
          return this.failed(new Error('El servidor no confirmó todos los intentos.'), acknowledged);
        }
      } catch (error) {
        return this.failed(error, acknowledged);
      }
    }
    return { acknowledged, pending: 0 };
  }

  private failed(error: unknown, acknowledged: number): FlushResult {
    this.transientFailure = error instanceof AgentApiError && error.transient;
    if (!this.sentByProbe && isServerDown(error)) this.sawServerDown = true;
    const retryInMs = this.backoff.fail();
    this.options.onFailed?.(error, this.outbox.size, retryInMs);
    return { acknowledged, pending: this.outbox.size, error };
  }
}

/** Whether a failed send means the server could not be reached (rather than refused the batch). */
function isServerDown(error: unknown): boolean {
  if (!(error instanceof AgentApiError)) return false;
  if (error.kind === 'unreachable' || error.kind === 'timeout') return true;
  // 502 and 504 come from a proxy whose server is away; 503 is the server saying it cannot serve.
  return error.kind === 'http' && (error.status === 502 || error.status === 503 || error.status === 504);
}
