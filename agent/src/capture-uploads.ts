/**
 * Screen captures waiting for the server (agent/README.md, «Capturas de pantalla»): each is read and
 * encoded as a JPEG as soon as its grab is done (capture-encoder.ts: on a thread of its own, one at a
 * time), and sent (`POST /api/agent/capture`) once the server stored its attempt: the server takes a
 * capture only for a stored attempt, so one of a kill waits while its attempt is still in the outbox
 * (the agent kicks the uploads the moment the server acknowledges it: running-agent.ts). At most
 * `CAPTURES_WAITING_MAX` wait, in memory only (an agent restarted drops them): one more drops the
 * oldest, counted. A failed send waits out the agent's backoff (backoff.ts); a refusal drops it.
 * Nothing here ever holds up a scan or an attempt.
 */
import { hostname } from 'node:os';
import { threadId } from 'node:worker_threads';
import { withoutUnprintable, type AgentCapture } from '@concurso/shared';
import { Backoff } from './backoff.js';
import { CaptureEncoder, type EncodedGrab } from './capture-encoder.js';
import type { RawGrab } from './capture-screen.js';
import { AgentApiError, describeError } from './errors.js';

/**
 * Most kills' grabs encoded ahead of their entry (`CaptureUploads.prepare`): the two of one kill and of
 * the next, each holding its dump meanwhile.
 */
const EARLY_MAX = 4;

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
  /** Where the captures are encoded. Default: a `CaptureEncoder` of its own (ended by `stop`). */
  encoder?: CaptureEncoder;
}

/** Counters of the uploads (the agent's stats, tests). */
export interface CaptureUploadStats {
  /** Captures the server took. */
  sent: number;
  /** Captures dropped: the oldest past the bound, refused by the server, or unreadable. */
  dropped: number;
  /** Size of the last JPEG (bytes) and how long encoding it took (ms, without its wait in the queue). */
  lastBytes: number | null;
  lastEncodeMs: number | null;
  /**
   * Whether the last capture was encoded on the encoder's own thread (true) or, that thread not
   * available, on the agent's (false); null before the first.
   */
  lastEncodedApart: boolean | null;
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
  readonly stats: CaptureUploadStats = {
    sent: 0,
    dropped: 0,
    lastBytes: null,
    lastEncodeMs: null,
    lastEncodedApart: null,
  };
  private readonly waiting: Waiting[] = [];
  private readonly backoff: Backoff;
  private readonly max: number;
  /**
   * Captures being grabbed or encoded. The encoder takes one at a time; a judge's request goes before
   * kills' captures still waiting for it.
   */
  private readonly encodings = new Set<Promise<void>>();
  private readonly encoder: CaptureEncoder;
  /**
   * Kills' grabs whose encoding started when they were taken (`prepare`), before their entry came
   * (`addKill`), oldest first, at most `EARLY_MAX`: one pushed out is not encoded there (its entry
   * encodes it when it comes). Each holds its dump (about 8 MB for 1920 × 1080) until taken.
   */
  private readonly early = new Map<
    RawGrab,
    { encoding: Promise<EncodedGrab>; taken: boolean; out: boolean }
  >();
  /** Grabs an entry already encodes (a «despues» taken after its kill's entry came): not prepared again. */
  private readonly claimed = new WeakSet<RawGrab>();
  private sending: Promise<void> | null = null;
  private lastProblem: string | null = null;
  private stopped = false;

  constructor(private readonly options: CaptureUploadsOptions) {
    this.backoff = options.backoff ?? new Backoff();
    this.max = Math.max(1, options.max ?? CAPTURES_WAITING_MAX);
    this.encoder = options.encoder ?? new CaptureEncoder({ log: options.log });
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

  /**
   * Starts encoding a kill's `grab` now, as it is taken: its entry (`addKill`, once the kill's attempt
   * is queued) then finds it encoded or under way. A grab no entry takes is dropped with the oldest past
   * `EARLY_MAX`.
   */
  prepare(grab: RawGrab): void {
    if (this.stopped || this.early.has(grab) || this.claimed.has(grab)) return;
    const state = { taken: false, out: false };
    const encoding = this.encoder.encode(grab, false, () => state.taken || !state.out);
    // Its failure is said by the entry that takes it.
    encoding.catch(() => undefined);
    const record = Object.assign(state, { encoding });
    this.early.set(grab, record);
    for (const [oldest, old] of this.early) {
      if (this.early.size <= EARLY_MAX) break;
      old.out = true;
      this.early.delete(oldest);
    }
  }

  /** A grab is starting: the encoder's thread starts now, if it is not running, to be ready for it. */
  warm(): void {
    if (!this.stopped) this.encoder.warm();
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
    await Promise.all([this.sending, this.encoder.stop()]);
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

  /** Reads and encodes one grab as soon as it is done, then tries to send. */
  private async encode(entry: Waiting): Promise<void> {
    const grab = await entry.grab;
    if (entry.dropped || this.stopped) return;
    if (!grab) return this.remove(entry, false);
    this.claimed.add(grab);
    const early = this.early.get(grab);
    if (early) {
      early.taken = true;
      this.early.delete(grab);
    }
    try {
      const encoded = await (early?.encoding ??
        this.encoder.encode(grab, entry.target.moment === 'pedida', () => !entry.dropped && !this.stopped));
      this.stats.lastEncodeMs = encoded.ms;
      this.stats.lastBytes = encoded.jpeg.length;
      this.stats.lastEncodedApart = encoded.threadId !== threadId;
      entry.ready = { image: encoded.jpeg.toString('base64'), takenAt: grab.takenAt };
    } catch (error) {
      if (entry.dropped || this.stopped) return;
      this.options.log(`No se pudo leer la captura de pantalla: ${describeError(error)}.`);
      return this.remove(entry, true);
    }
    if (entry.dropped || this.stopped) return;
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
