/**
 * Screen captures waiting for the server (agent/README.md, «Capturas de pantalla»): each is read and
 * encoded as a JPEG once its grab is done (capture-image.ts, one at a time, off the kill), and sent
 * (`POST /api/agent/capture`) once the server stored its attempt: the server takes a capture only
 * for a stored attempt, so one of a kill waits while its attempt is still in the outbox. At most
 * `CAPTURES_WAITING_MAX` wait, in memory only (an agent restarted drops them): one more drops the
 * oldest, counted. A failed send waits out the agent's backoff (backoff.ts); a refusal drops it.
 * Nothing here ever holds up a scan or an attempt.
 */
import { hostname } from 'node:os';
import { withoutUnprintable, type AgentCapture } from '@concurso/shared';
import { Backoff } from './backoff.js';
import { decodeGrab, type RawGrab } from './capture-screen.js';
import { encodeCapture } from './capture-image.js';
import { AgentApiError, describeError } from './errors.js';

/**
 * How long after its grab a kill's capture is encoded (ms): encoding holds the agent's thread for
 * 100-400 ms, so it waits out the fast rescans after a kill (rescan-burst.ts, 1 s) that end a
 * program started again at once. A judge's request is encoded at once.
 */
const KILL_ENCODE_AFTER_MS = 1_100;

/** Most captures waiting (grabbed, encoded or not, not yet sent): about 200 KB each once encoded. */
const CAPTURES_WAITING_MAX = 20;

/** What `CaptureUploads` needs. */
export interface CaptureUploadsOptions {
  /** Sends one capture. @throws AgentApiError (client.ts). */
  send(body: AgentCapture): Promise<void>;
  /** Whether the attempt `eventId` still waits in the outbox (its capture waits with it). */
  attemptWaiting(eventId: string): boolean;
  log(line: string): void;
  backoff?: Backoff;
  /** Most captures waiting. Default `CAPTURES_WAITING_MAX`. */
  max?: number;
}

/** Counters of the uploads (the agent's stats, tests). */
export interface CaptureUploadStats {
  /** Captures the server took. */
  sent: number;
  /** Captures dropped: the oldest past the bound, refused by the server, or unreadable. */
  dropped: number;
  /** Size of the last JPEG (bytes) and how long encoding it took (ms). */
  lastBytes: number | null;
  lastEncodeMs: number | null;
}

interface Waiting {
  target: { event_id: string; moment: 'antes' | 'despues' } | { request_id: string; moment: 'pedida' };
  grab: Promise<RawGrab | null>;
  /** Set once encoded: the JPEG and when the screen was read. */
  ready?: { image: string; takenAt: string };
  /** Dropped (past the bound) while still being grabbed or encoded. */
  dropped?: boolean;
}

/** The captures waiting for the server, bounded, sent in order. */
export class CaptureUploads {
  readonly stats: CaptureUploadStats = { sent: 0, dropped: 0, lastBytes: null, lastEncodeMs: null };
  private readonly waiting: Waiting[] = [];
  private readonly backoff: Backoff;
  private readonly max: number;
  /**
   * Captures being grabbed or waiting to be encoded. Each encoding is synchronous, so two never
   * overlap; a judge's request, not held back, goes before kills' captures still waiting.
   */
  private readonly encodings = new Set<Promise<void>>();
  private sending: Promise<void> | null = null;
  private lastProblem: string | null = null;
  private stopped = false;

  constructor(private readonly options: CaptureUploadsOptions) {
    this.backoff = options.backoff ?? new Backoff();
    this.max = Math.max(1, options.max ?? CAPTURES_WAITING_MAX);
  }

  /** Captures waiting now. */
  get size(): number {
    return this.waiting.length;
  }

  /** Queues the captures of a kill whose attempt is `eventId`. */
  addKill(
    eventId: string,
    shots: { antes: Promise<RawGrab | null>; despues: Promise<RawGrab | null> },
  ): void {
    this.add({ target: { event_id: eventId, moment: 'antes' }, grab: shots.antes });
    this.add({ target: { event_id: eventId, moment: 'despues' }, grab: shots.despues });
  }

  /** Queues the capture a judge asked for (`requestId`). */
  addRequested(requestId: string, grab: Promise<RawGrab | null>): void {
    this.add({ target: { request_id: requestId, moment: 'pedida' }, grab });
  }

  /** Starts sending what is ready, unless a send runs or the backoff waits. Never throws. */
  kick(): void {
    if (this.stopped || this.sending || !this.backoff.due || !this.waiting.some((w) => this.sendable(w)))
      return;
    this.sending = this.sendReady().finally(() => {
      this.sending = null;
    });
  }

  /** Resolves once the encodings and the send in progress are done. */
  async idle(): Promise<void> {
    while (this.encodings.size > 0) await Promise.all(this.encodings);
    await this.sending;
  }

  /**
   * The agent stops: nothing more is encoded or sent (what waits is dropped with the agent's memory);
   * resolves once the send in progress, if any, is done.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.sending;
  }

  private add(entry: Waiting): void {
    this.waiting.push(entry);
    while (this.waiting.length > this.max) {
      const oldest = this.waiting.shift()!;
      oldest.dropped = true;
      this.stats.dropped += 1;
    }
    const encoding: Promise<void> = this.encode(entry).finally(() => this.encodings.delete(encoding));
    this.encodings.add(encoding);
  }

  /** Reads and encodes one grab once it is done (a kill's, `KILL_ENCODE_AFTER_MS` later), then tries to send. */
  private async encode(entry: Waiting): Promise<void> {
    const grab = await entry.grab;
    if (entry.dropped || this.stopped) return;
    if (!grab) return this.remove(entry, false);
    // Let the scans and sends go first: encoding holds the thread.
    const after = entry.target.moment === 'pedida' ? 0 : KILL_ENCODE_AFTER_MS;
    await new Promise((resolve) => setTimeout(resolve, after));
    if (entry.dropped || this.stopped) return;
    const started = Date.now();
    try {
      const encoded = encodeCapture(decodeGrab(grab));
      this.stats.lastEncodeMs = Date.now() - started;
      this.stats.lastBytes = encoded.jpeg.length;
      entry.ready = { image: encoded.jpeg.toString('base64'), takenAt: grab.takenAt };
    } catch (error) {
      this.options.log(`No se pudo leer la captura de pantalla: ${describeError(error)}.`);
      return this.remove(entry, true);
    }
    this.kick();
  }

  /** Whether `entry` can go now: encoded, and its attempt already stored (not in the outbox). */
  private sendable(entry: Waiting): boolean {
    if (!entry.ready) return false;
    return !('event_id' in entry.target) || !this.options.attemptWaiting(entry.target.event_id);
  }

  private async sendReady(): Promise<void> {
    while (!this.stopped) {
      const entry = this.waiting.find((w) => this.sendable(w));
      if (!entry) return;
      try {
        await this.options.send({
          ...entry.target,
          taken_at: entry.ready!.takenAt,
          hostname: withoutUnprintable(hostname()).slice(0, 255),
          mime: 'image/jpeg',
          image: entry.ready!.image,
        });
        this.stats.sent += 1;
        this.backoff.succeed();
        this.lastProblem = null;
        this.remove(entry, false);
      } catch (error) {
        if (error instanceof AgentApiError && error.transient) {
          // Kept: tried again after the backoff (the agent kicks every second).
          const asked = error.retryAfterMs;
          if (asked === undefined) this.backoff.fail();
          else this.backoff.failAtLeast(asked);
          this.problem(describeError(error));
          return;
        }
        // Refused (its attempt not stored, too big, captures off): sending it again cannot help.
        this.problem(describeError(error));
        this.remove(entry, true);
      }
    }
  }

  private remove(entry: Waiting, dropped: boolean): void {
    const at = this.waiting.indexOf(entry);
    if (at >= 0) this.waiting.splice(at, 1);
    if (dropped) this.stats.dropped += 1;
  }

  /** Says why a send failed, once per reason. */
  private problem(reason: string): void {
    if (reason !== this.lastProblem) this.options.log(`No se pudo enviar una captura de pantalla: ${reason}`);
    this.lastProblem = reason;
  }
}
