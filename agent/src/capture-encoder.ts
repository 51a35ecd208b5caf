/**
 * Where the agent encodes its screen captures (agent/README.md, «Capturas de pantalla»): reading a
 * dump, scaling it and encoding the JPEG (capture-image.ts) takes 150-600 ms of CPU, all synchronous,
 * so it runs on a worker thread of its own (capture-encoder-thread.ts) and the agent's thread keeps
 * scanning, ending programs and sending meanwhile. The thread starts with the first grab (`warm`) and
 * ends after `IDLE_MS` without a capture; one dump at a time, a judge's request before kills' captures still
 * waiting. Runs the same way from the sources (tsx: the thread's file through tsx's require hook), from
 * the single-file builds (the thread's bundle, a string they embed: agent/scripts/build.ts and
 * agent/scripts/pack.ts) and from the Windows single executable. A thread that cannot start, or that
 * dies, is said once in the log and the captures are encoded on the agent's thread, as before (a
 * kill's `HERE_AFTER_MS` later).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker, threadId as ownThreadId } from 'node:worker_threads';
import { CAPTURE_MAX_BYTES, CAPTURE_MAX_WIDTH } from '@concurso/shared';
import { decodeDump, encodeCapture, type DumpFormat } from './capture-image.js';
import type { RawGrab } from './capture-screen.js';

/**
 * The thread's code, bundled into one CommonJS script: defined by the single-file builds
 * (agent/scripts/build.ts, agent/scripts/pack.ts); undefined when running from the sources.
 */
declare const __CAPTURE_ENCODER_SOURCE__: string | undefined;

/** How long the thread stays without a capture before it ends (ms); the next capture starts another. */
const IDLE_MS = 60_000;

/**
 * Without the thread, how long a kill's capture waits before it is encoded on the agent's thread (ms):
 * encoding holds that thread for 150-600 ms, so it waits out the fast rescans after a kill
 * (rescan-burst.ts, 1 s) that end a program started again at once. A judge's request goes at once.
 */
const HERE_AFTER_MS = 1_100;

/** Main thread → encoder thread: one dump to encode. */
export interface EncodeJob {
  id: number;
  /** The dump's bytes, a copy of the grab's (a grab can be shared by two captures: capture.ts). */
  bytes: Uint8Array;
  format: DumpFormat;
  /** The JPEG's most bytes and px of width (shared's `CAPTURE_MAX_BYTES`, `CAPTURE_MAX_WIDTH`). */
  maxBytes: number;
  maxWidth: number;
}

/** Encoder thread → main thread: the JPEG of job `id`, or why its dump could not be read. */
export type EncodeReply =
  | {
      id: number;
      jpeg: Uint8Array;
      width: number;
      height: number;
      quality: number;
      ms: number;
      threadId: number;
    }
  | { id: number; error: string };

/** One capture encoded. */
export interface EncodedGrab {
  jpeg: Buffer;
  width: number;
  height: number;
  /** The JPEG quality that fitted (1-100). */
  quality: number;
  /** How long reading, scaling and encoding took where it ran (ms), without the wait in the queue. */
  ms: number;
  /** The `worker_threads` id of the thread that encoded it: the caller's own when it fell back. */
  threadId: number;
}

/** What `CaptureEncoder` needs. */
export interface CaptureEncoderOptions {
  /** One Spanish line (the agent's log). */
  log(line: string): void;
  /** Starts the thread. Default: `startEncoderThread`. Tests pass one that fails. */
  start?: () => Worker;
}

interface Job {
  grab: RawGrab;
  urgent: boolean;
  wanted: () => boolean;
  resolve(encoded: EncodedGrab): void;
  reject(error: Error): void;
}

/** A dump that could not be read (the thread's message, for the agent's log). */
class CaptureReadError extends Error {}

/**
 * The encoder thread as this agent runs: the bundle's embedded source when there is one, else the
 * thread's TypeScript file loaded through tsx's require hook (a worker does not inherit the hooks of
 * `tsx` or `--import tsx` on Node 20, and `--import tsx` in its `execArgv` does not reach its own
 * entry file either).
 * @throws when neither is there (tsx not installed beside the sources).
 */
function startEncoderThread(): Worker {
  if (typeof __CAPTURE_ENCODER_SOURCE__ === 'string')
    return new Worker(__CAPTURE_ENCODER_SOURCE__, { eval: true, execArgv: [] });
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const entry = fileURLToPath(new URL('./capture-encoder-thread.ts', import.meta.url));
  return new Worker(`require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(entry)});`, {
    eval: true,
    execArgv: [],
  });
}

/** Encodes captures one at a time on a thread of its own, or on the caller's if that cannot be. */
export class CaptureEncoder {
  private readonly queue: Job[] = [];
  private running: Job | null = null;
  private worker: Worker | null = null;
  /** Why the thread cannot be used (said once); null while it can. */
  private broken: string | null = null;
  private idleTimer: NodeJS.Timeout | undefined;
  private nextId = 1;
  private stopped = false;

  constructor(private readonly options: CaptureEncoderOptions) {}

  /**
   * `grab` read, scaled and encoded as a JPEG (capture-image.ts `encodeCapture`), after the captures
   * queued before it (after none when `urgent`: a judge is waiting for it). `wanted` is asked when its
   * turn comes: a capture dropped meanwhile (past the bound of capture-uploads.ts) is not encoded.
   * @throws CaptureReadError with a Spanish phrase when the dump cannot be read; Error when stopped or
   *   no longer wanted.
   */
  encode(grab: RawGrab, urgent = false, wanted: () => boolean = () => true): Promise<EncodedGrab> {
    if (this.stopped) return Promise.reject(new Error('el agente se detiene'));
    return new Promise<EncodedGrab>((resolve, reject) => {
      const job = { grab, urgent, wanted, resolve, reject };
      if (urgent) {
        const firstLate = this.queue.findIndex((j) => !j.urgent);
        this.queue.splice(firstLate < 0 ? this.queue.length : firstLate, 0, job);
      } else this.queue.push(job);
      this.next();
    });
  }

  /**
   * Starts the thread now if it is not running (a grab is starting: the thread boots while the
   * screen is read, 50-250 ms from a build, about a second from the sources under tsx), idle until a
   * dump comes. Never throws.
   */
  warm(): void {
    if (this.stopped || this.worker || this.broken !== null) return;
    this.thread();
    this.next();
  }

  /** Nothing more is encoded: what waits is rejected and the thread ends. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.idleTimer);
    for (const job of this.queue.splice(0)) job.reject(new Error('el agente se detiene'));
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  /** Starts the next job unless one runs. */
  private next(): void {
    if (this.running || this.stopped) return;
    clearTimeout(this.idleTimer);
    let job = this.queue.shift();
    while (job && !job.wanted()) {
      job.reject(new Error('ya no se espera'));
      job = this.queue.shift();
    }
    if (!job) {
      // Unreferenced while idle: an idle encoder never keeps the agent's process alive.
      this.worker?.unref();
      if (this.worker) this.idleTimer = setTimeout(() => this.endIdle(), IDLE_MS).unref();
      return;
    }
    this.running = job;
    const worker = this.thread();
    if (worker) {
      // Referenced while it works: an agent waiting for its captures (`--once`) waits for the reply.
      worker.ref();
      const bytes = new Uint8Array(job.grab.bytes);
      const message: EncodeJob = {
        id: this.nextId++,
        bytes,
        format: job.grab.format,
        maxBytes: CAPTURE_MAX_BYTES,
        maxWidth: CAPTURE_MAX_WIDTH,
      };
      worker.postMessage(message, [bytes.buffer]);
      return;
    }
    this.encodeHere(job);
  }

  /** `job` encoded on this thread, a kill's after `HERE_AFTER_MS` (a request's on the next turn). */
  private encodeHere(job: Job): void {
    setTimeout(() => this.finish(job, encodeHere(job.grab)), job.urgent ? 0 : HERE_AFTER_MS);
  }

  /** The thread, started if needed; null when it cannot be. */
  private thread(): Worker | null {
    if (this.broken !== null) return null;
    if (this.worker) return this.worker;
    let worker: Worker;
    try {
      worker = (this.options.start ?? startEncoderThread)();
    } catch (error) {
      this.fail(error);
      return null;
    }
    worker.on('message', (reply: EncodeReply) => {
      const job = this.running;
      if (!job || worker !== this.worker) return;
      if ('error' in reply) return this.finish(job, new CaptureReadError(reply.error));
      const { jpeg, width, height, quality, ms, threadId } = reply;
      this.finish(job, {
        jpeg: Buffer.from(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength),
        width,
        height,
        quality,
        ms,
        threadId,
      });
    });
    const lost = (cause: unknown) => {
      if (worker !== this.worker) return;
      this.worker = null;
      void worker.terminate();
      this.fail(cause);
      // The job it held is encoded here instead.
      if (this.running) this.encodeHere(this.running);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`terminó con código ${code}`)));
    this.worker = worker;
    return worker;
  }

  private finish(job: Job, result: EncodedGrab | Error): void {
    if (this.running !== job) return;
    this.running = null;
    if (result instanceof Error) job.reject(result);
    else job.resolve(result);
    this.next();
  }

  /** From now on the captures are encoded here; said once. */
  private fail(cause: unknown): void {
    if (this.broken !== null) return;
    this.broken = cause instanceof Error ? cause.message : String(cause);
    this.options.log(
      `No se pudo usar un hilo aparte para las capturas de pantalla (${this.broken}): se codifican en el hilo del agente.`,
    );
  }

  private endIdle(): void {
    if (this.running || this.queue.length > 0 || !this.worker) return;
    const worker = this.worker;
    this.worker = null;
    void worker.terminate();
  }
}

/** `grab` encoded on this thread: the fallback when the encoder thread cannot be used. */
function encodeHere(grab: RawGrab): EncodedGrab | CaptureReadError {
  const started = Date.now();
  try {
    const encoded = encodeCapture(decodeDump(grab.bytes, grab.format));
    return { ...encoded, ms: Date.now() - started, threadId: ownThreadId };
  } catch (error) {
    return new CaptureReadError(error instanceof Error ? error.message : String(error));
  }
}
