/**
 * Sends the outbox to the server: oldest first, in batches of at most `AGENT_MAX_BATCH`, removing
 * an attempt only once the server acknowledged its `event_id`. On failure it backs off
 * exponentially; since the server counts an `event_id` once, resending after a lost answer is safe.
 * While it backs off after an outage, a cheap probe (`probeServer`) lets it send as soon as the
 * server answers again instead of waiting out a delay of up to 30 s. A batch the server refuses (422)
 * is never retried as is: the attempts it names, or the whole batch when it names none, are set aside
 * in the outbox's refused file with the server's reasons, and the rest are sent at once.
 */
import { AGENT_MAX_BATCH, type AgentAttempt } from '@concurso/shared';
import { Backoff } from './backoff.js';
import type { AgentClient } from './client.js';
import { AgentApiError } from './errors.js';
import type { Outbox } from './outbox.js';
import { bodyMessages, refusedIndexes } from './refusals.js';
import { TEXTS } from './texts.js';

/** What one successful batch did. */
interface BatchSent {
  /** Attempts acknowledged (new or already stored) and removed from the outbox. */
  acknowledged: number;
  /** Attempts the server counted for the first time. */
  counted: number;
  /** The team's total after this batch. */
  numberAttempts: number;
}

/** What one 422 answer set aside. */
export interface AttemptsRefused {
  /** Attempts moved out of the outbox into the refused file. */
  count: number;
  /** The server's reasons, without repeats. */
  reasons: string[];
  /** The refused file. */
  file: string;
}

/** What a flush did. */
export interface FlushResult {
  /** Attempts acknowledged during this flush. */
  acknowledged: number;
  /** Attempts still waiting. */
  pending: number;
  /** Attempts the server refused (422) during this flush, set aside; present only when any. */
  refused?: number;
  /** Why it stopped early, when it did. */
  error?: unknown;
}

export interface DeliveryOptions {
  backoff?: Backoff;
  /** Largest batch (default and maximum `AGENT_MAX_BATCH`). */
  batchSize?: number;
  onSent?: (batch: BatchSent) => void;
  /**
   * The server acknowledged the attempts `eventIds` and they just left the outbox in memory, before
   * the outbox file is saved (`onSent` comes after that): what waits for them to be stored (their
   * screen captures) may go now.
   */
  onStored?: (eventIds: string[]) => void;
  /** The server refused attempts (422); they were set aside and the rest keep going. */
  onRefused?: (refusal: AttemptsRefused) => void;
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
   * to see the server down before the next one. A 401 never probes: retrying will not help (and a 422
   * never waits: its attempts are set aside at once).
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
    let refused = 0;
    const result = (pending: number, error?: unknown): FlushResult => ({
      acknowledged,
      pending,
      ...(refused > 0 ? { refused } : {}),
      ...(error === undefined ? {} : { error }),
    });
    while (this.outbox.size > 0) {
      const batch = this.outbox.pending().slice(0, this.batchSize);
      try {
        const answer = await this.client.postAttempts(batch);
        const sent = new Set(batch.map((a) => a.event_id));
        const accepted = answer.accepted.filter((id) => sent.has(id));
        // `ack` takes them out of the queue at once and resolves once the file is saved.
        const saved = this.outbox.ack(accepted);
        if (accepted.length > 0) this.options.onStored?.(accepted);
        await saved;
        acknowledged += accepted.length;
        this.backoff.succeed();
        this.transientFailure = false;
        this.options.onSent?.({
          acknowledged: accepted.length,
          counted: answer.counted,
          numberAttempts: answer.number_attempts,
        });
        // The server kept some back: try them again later rather than in a tight loop.
        if (accepted.length < batch.length) {
          return this.failed(new Error('El servidor no confirmó todos los intentos.'), result);
        }
      } catch (error) {
        if (!isRefusal(error)) return this.failed(error, result);
        // Resending the same body would be refused forever and block everything queued behind it.
        let moved: number;
        try {
          moved = await this.setAside(batch, error);
        } catch (writeError) {
          return this.failed(writeError, result);
        }
        if (moved === 0) return this.failed(error, result);
        refused += moved;
        this.backoff.succeed();
        this.transientFailure = false;
      }
    }
    return result(0);
  }

  /**
   * Sets aside what a 422 or 409 refused: the attempts it names (`attempts.<index>...`), or the whole
   * batch when it names none. Answers how many left the outbox.
   */
  private async setAside(batch: AgentAttempt[], error: AgentApiError): Promise<number> {
    const named = refusedIndexes(error.errors, batch.length);
    const forBody = bodyMessages(error.errors);
    const fallback = forBody.length > 0 ? forBody : [error.serverMessage || TEXTS.refusedNoReason];
    const refusals =
      named.size > 0
        ? [...named].map(([index, reasons]) => ({
            attempt: batch[index]!,
            reasons: reasons.length > 0 ? reasons : fallback,
          }))
        : batch.map((attempt) => ({ attempt, reasons: fallback }));
    const moved = await this.outbox.setAside(refusals);
    if (moved > 0) {
      const reasons = [...new Set(refusals.flatMap((r) => r.reasons))];
      this.options.onRefused?.({ count: moved, reasons, file: this.outbox.refusedFile });
    }
    return moved;
  }

  private failed(error: unknown, result: (pending: number, error: unknown) => FlushResult): FlushResult {
    this.transientFailure = error instanceof AgentApiError && error.transient;
    if (!this.sentByProbe && isServerDown(error)) this.sawServerDown = true;
    // The server asked to wait (a 429 with `Retry-After`: its team's attempts are at their cap, or the
    // address sent too many wrong keys): nothing is lost, the outbox keeps them until then.
    const asked = error instanceof AgentApiError ? error.retryAfterMs : undefined;
    const retryInMs = asked === undefined ? this.backoff.fail() : this.backoff.failAtLeast(asked);
    this.options.onFailed?.(error, this.outbox.size, retryInMs);
    return result(this.outbox.size, error);
  }
}

/**
 * Whether a failed send is the server refusing the body for good: invalid (422), or its team's contest
 * is not the active one (409 `agentContestInactive`: never counted into another contest).
 * Resending cannot help; the attempts are set aside with the server's message.
 */
function isRefusal(error: unknown): error is AgentApiError {
  return (
    error instanceof AgentApiError && error.kind === 'http' && (error.status === 422 || error.status === 409)
  );
}

/** Whether a failed send means the server could not be reached (rather than refused the batch). */
function isServerDown(error: unknown): boolean {
  if (!(error instanceof AgentApiError)) return false;
  if (error.kind === 'unreachable' || error.kind === 'timeout') return true;
  // 502 and 504 come from a proxy whose server is away; 503 is the server saying it cannot serve.
  return error.kind === 'http' && (error.status === 502 || error.status === 503 || error.status === 504);
}
