/**
 * The screen at the moment of an attempt, and on a judge's request (agent/README.md, «Capturas de
 * pantalla»). One grab at a time per machine: a kill or a request while one runs shares it. What
 * cannot be grabbed (no graphical session, `xwd` missing) is said once per reason in the agent's log
 * and skipped; a capture never fails or delays a kill by more than `ANTES_WAIT_MS`.
 */
import type { RawGrab, ScreenGrabber } from './capture-screen.js';

/**
 * Longest a kill waits for the «antes» capture (ms), its program stopped (SIGSTOP) meanwhile: the
 * grab goes on after it, but the kill does not wait any longer.
 */
const ANTES_WAIT_MS = 500;

/** When the «despues» capture is taken after the program is gone (ms): its windows have closed. */
const DESPUES_AFTER_MS = 300;

/** The two captures of one kill; each resolves to null when it could not be taken. */
export interface KillShots {
  antes: Promise<RawGrab | null>;
  despues: Promise<RawGrab | null>;
}

/** What the killer needs of the captures: whether they are on now, and one grab. */
export interface KillCapture {
  /** Whether the contest asks for captures now (`capture_screens` of the config). */
  enabled(): boolean;
  /** One grab of the screen (shared with one in progress); null when it could not be taken. */
  grab(): Promise<RawGrab | null>;
  /** Told how long a kill waited for its «antes» capture (ms), for the stats. */
  killWaited?(ms: number): void;
}

/** Counters of the grabs (for the agent's stats and tests). */
export interface CaptureStats {
  /** Grabs that gave a dump. */
  taken: number;
  /** Grabs that failed (said in the log once per reason). */
  failed: number;
  /** How long the last grab took (ms), or null before the first. */
  lastGrabMs: number | null;
  /** How long the last kill waited for its «antes» capture (ms; at most `ANTES_WAIT_MS`), or null. */
  lastKillWaitMs: number | null;
}

/** One grabber shared by the kills and the requests, at most one grab in flight. */
export class ScreenCapture implements KillCapture {
  readonly stats: CaptureStats = { taken: 0, failed: 0, lastGrabMs: null, lastKillWaitMs: null };
  private inFlight: Promise<RawGrab | null> | null = null;
  private lastFailure: string | null = null;
  /** Until when kills take no capture (a grab just failed), ms since the epoch. */
  private pausedUntil = 0;

  /**
   * @param grabber the machine's (capture-screen.ts `defaultGrabber`); null: none here (a Windows
   *   agent outside the single executable), every grab answers null.
   * @param wanted whether the contest asks for captures now.
   * @param log one Spanish line (the agent's log).
   */
  constructor(
    private readonly grabber: ScreenGrabber | null,
    private readonly wanted: () => boolean,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * Whether a kill takes its captures now: the contest asks for them, and no grab failed in the last
   * `KILL_PAUSE_AFTER_FAILURE_MS`.
   */
  enabled(): boolean {
    return this.wanted() && Date.now() >= this.pausedUntil;
  }

  grab(): Promise<RawGrab | null> {
    this.inFlight ??= this.grabOnce().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  killWaited(ms: number): void {
    this.stats.lastKillWaitMs = ms;
  }

  private async grabOnce(): Promise<RawGrab | null> {
    if (!this.grabber) return this.failed('este sistema no tiene con qué tomarla');
    try {
      const grab = await this.grabber();
      this.stats.taken += 1;
      this.stats.lastGrabMs = grab.ms;
      this.lastFailure = null;
      this.pausedUntil = 0;
      return grab;
    } catch (error) {
      return this.failed(error instanceof Error ? error.message : String(error));
    }
  }

  private failed(reason: string): null {
    this.stats.failed += 1;
    this.pausedUntil = Date.now() + KILL_PAUSE_AFTER_FAILURE_MS;
    if (reason !== this.lastFailure) this.log(`No se tomó la captura de pantalla: ${reason}.`);
    this.lastFailure = reason;
    return null;
  }
}

/** Who encodes a kill's captures (capture-uploads.ts `CaptureUploads`). */
interface GrabTaker {
  /** A grab is starting (the encoder's thread may start meanwhile). */
  warm(): void;
  /** A grab was taken: its encoding may start. */
  prepare(grab: RawGrab): void;
}

/**
 * `capture` for the killer, telling `uploads` when each grab starts and handing it each grab it takes,
 * on the turn after (the kill goes on first): the uploads start encoding a kill's captures at once,
 * before its attempt is accounted and queued.
 */
export function handingGrabsTo(capture: KillCapture, uploads: GrabTaker): KillCapture {
  return {
    enabled: () => capture.enabled(),
    grab: () => {
      uploads.warm();
      return capture.grab().then((grab) => {
        if (grab) setImmediate(() => uploads.prepare(grab));
        return grab;
      });
    },
    killWaited: (ms) => capture.killWaited?.(ms),
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * How long kills take no capture after a grab failed (ms): a machine without a graphical session or
 * without `xwd` does not stop every program it ends for nothing. A judge's request still tries, and a
 * grab that works ends the pause.
 */
const KILL_PAUSE_AFTER_FAILURE_MS = 60_000;

/** The «despues» capture: `DESPUES_AFTER_MS` from now (ms, the program just ended), when captures are still on. */
export function despuesShot(capture: KillCapture): Promise<RawGrab | null> {
  return sleep(DESPUES_AFTER_MS).then(() => (capture.enabled() ? capture.grab() : null));
}

/**
 * Waits for a kill's «antes» `grab` at most `ANTES_WAIT_MS` (ms; it goes on either way) and tells
 * `capture` how long it waited.
 */
export async function waitForAntes(capture: KillCapture, grab: Promise<unknown>): Promise<void> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([grab, new Promise<void>((resolve) => (timer = setTimeout(resolve, ANTES_WAIT_MS)))]);
  clearTimeout(timer);
  capture.killWaited?.(Date.now() - started);
}
