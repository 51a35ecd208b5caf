import type { Receipt } from './messages.repository.js';

/** Which of two receipts of the same (team, message) waiting together is kept: the higher. */
const RANK: Record<Receipt['kind'], number> = { falló: 0, entregado: 1, visto: 2 };

/** Receipts one statement writes at most (three parameters each). */
const RECEIPTS_PER_STATEMENT = 500;
/** Receipts waiting at most; past it new ones are dropped and counted (the channel already bounds them). */
const RECEIPTS_PENDING_MAX = 20_000;
/** How long receipts gather before they are written (ms). */
const RECEIPTS_GATHER_MS = 50;
/** How long a failed write waits before its receipts are tried again (ms). */
const RECEIPTS_RETRY_MS = 1_000;

/**
 * Gathers agents' message receipts and writes them in batches (docs/design.md section 6a: nothing one key
 * sends may cost the server without bound): a receipt waits at most `RECEIPTS_GATHER_MS`, the same
 * (team, message) waits once (`visto` wins over `entregado`, which wins over `falló`), one write runs at a time with up to
 * `RECEIPTS_PER_STATEMENT` receipts per statement, and at most `RECEIPTS_PENDING_MAX` wait; what
 * arrives past that is dropped and reported to `onDropped` (the agents' channel lets a socket
 * acknowledge only what it was sent, so honest receipts stay far below it).
 */
export class ReceiptBatcher {
  private pending = new Map<string, Receipt>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  /**
   * @param write stores one statement's receipts, answering how many changed (`recordReceipts`).
   * @param onWritten told how many receipts changed after each write (the staff's screens refetch).
   * @param onError told of a failed write (its receipts wait and are tried again after `RECEIPTS_RETRY_MS`).
   * @param onDropped told how many receipts were dropped past `RECEIPTS_PENDING_MAX`.
   */
  constructor(
    private readonly write: (receipts: Receipt[]) => Promise<number>,
    private readonly onWritten: (changed: number) => void,
    private readonly onError: (err: unknown) => void,
    private readonly onDropped: (count: number) => void = () => undefined,
  ) {}

  /**
   * Queues one receipt. Never throws. The same (team, message) waits once: `visto` over `entregado`
   * over `falló`, and a newer `falló` over an older one (the last reason is kept).
   */
  add(receipt: Receipt): void {
    const key = `${receipt.teamId}:${receipt.messageId}`;
    const queued = this.pending.get(key);
    if (queued) {
      if (RANK[receipt.kind] >= RANK[queued.kind]) this.pending.set(key, { ...receipt });
    } else if (this.pending.size >= RECEIPTS_PENDING_MAX) {
      this.onDropped(1);
      return;
    } else {
      this.pending.set(key, { ...receipt });
    }
    this.schedule(RECEIPTS_GATHER_MS);
  }

  private schedule(delayMs: number): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.writing = this.writing.then(() => this.flush());
    }, delayMs);
  }

  /**
   * Writes what is queued now and resolves once done (the server is closing; tests); what fails
   * then is not tried again.
   */
  async drained(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.writing = this.writing.then(() => this.flush(false));
    await this.writing;
  }

  private async flush(retry = true): Promise<void> {
    const receipts = [...this.pending.values()];
    this.pending = new Map();
    let changed = 0;
    for (let start = 0; start < receipts.length; start += RECEIPTS_PER_STATEMENT) {
      const chunk = receipts.slice(start, start + RECEIPTS_PER_STATEMENT);
      try {
        changed += await this.write(chunk);
      } catch (err) {
        this.onError(err);
        if (!retry) continue;
        // Back in the queue (newer receipts of the same pair win), within its bound.
        for (const receipt of chunk) {
          const key = `${receipt.teamId}:${receipt.messageId}`;
          if (!this.pending.has(key) && this.pending.size < RECEIPTS_PENDING_MAX)
            this.pending.set(key, receipt);
        }
        this.schedule(RECEIPTS_RETRY_MS);
      }
    }
    if (changed > 0) this.onWritten(changed);
  }
}
