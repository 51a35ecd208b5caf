/**
 * Sends the outbox to the server: oldest first, in batches of at most `AGENT_MAX_BATCH`, removing
 * an attempt only once the server acknowledged its `event_id`. On failure it backs off
 * exponentially; since the server counts an `event_id` once, resending after a lost answer is safe.
 */
import { AGENT_MAX_BATCH } from '@concurso/shared';
import { Backoff } from './backoff.js';
import type { AgentClient } from './client.js';
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
}

/** Moves attempts from the outbox to the server, one send at a time. */
export class Delivery {
  private running: Promise<FlushResult> | null = null;
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

  /** Resolves once no send is in progress. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private start(): Promise<FlushResult> {
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
    const retryInMs = this.backoff.fail();
    this.options.onFailed?.(error, this.outbox.size, retryInMs);
    return { acknowledged, pending: this.outbox.size, error };
  }
}
