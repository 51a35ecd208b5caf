import { hostname, platform, release } from 'node:os';
import { AGENT_HEARTBEAT_MS, AGENT_POLL_MS, type AgentConfig, type AgentFingerprint } from '@concurso/shared';
import {
  AGENT_CONFIG_REFRESH_MS,
  AGENT_CONFIG_REFRESH_PUSHED_MS,
  AGENT_RETRY_PROBE_MS,
  type AgentHandle,
  type AgentOptions,
  type AgentStats,
} from './agent-options.js';
import type { AgentClient } from './client.js';
import { Delivery } from './delivery.js';
import { ScreenCapture, handingGrabsTo } from './capture.js';
import { CaptureNotice } from './capture-notice.js';
import { lazyDefaultGrabber } from './capture-screen.js';
import { CaptureUploads } from './capture-uploads.js';
import { AgentApiError, describeError } from './errors.js';
import { Fingerprinter } from './fingerprint.js';
import { DEFAULT_GRACE_MS, Killer } from './killer.js';
import type { AgentLock } from './lock.js';
import { OBSERVED_SEND_MS, ObservedLog } from './observed.js';
import type { Outbox } from './outbox.js';
import type { NetworkGuard } from './network/network-guard.js';
import { NewProcessWatch } from './new-process-watch.js';
import { Periodic } from './periodic.js';
import type { SavedConfig } from './saved-config.js';
import { desktopMessageScreen, type MessageScreen } from './message-screen.js';
import { PolicySocket } from './policy-socket.js';
import { RescanBurst } from './rescan-burst.js';
import { defaultLister } from './scanner.js';
import { Sweeper, atMost } from './sweeper.js';
import { TEXTS } from './texts.js';
import { AGENT_VERSION } from './version.js';

/** Longest wait at stop for the last report of what ran on the machine (ms). */
const STOP_REPORT_MS = 2_000;

/** Longest wait at stop for the server to hear that the agent stops (ms). */
const STOP_NOTICE_MS = 2_000;

/** What `startAgent` hands the running agent once the options are checked and the first config read. */
export interface AgentSetup {
  options: AgentOptions;
  client: AgentClient;
  /** Aborted at stop: ends the requests in flight. */
  lifetime: AbortController;
  config: AgentConfig;
  dataDir: string;
  storage: { outbox: Outbox; lock: AgentLock } | null;
  /** The network policy, already restored from the last run. */
  network: NetworkGuard;
  log: (line: string) => void;
  /** Where every config taken is kept for a start without the server (saved-config.ts). */
  saved?: SavedConfig;
}

/**
 * The machine agent once started (docs/design.md section 6), its state in one object: the config applied,
 * the counters, the scan (`Sweeper`), the delivery of attempts, the report of what ran, and the loops
 * (`Periodic`) of the poll, the heartbeat, the config refresh, the server probe and the report.
 * Problems with the server are logged when they start or change, not on every retry.
 */
export class RunningAgent implements AgentHandle {
  readonly dataDir: string;
  private current: AgentConfig;
  private readonly counters: AgentStats;
  private readonly log: (line: string) => void;
  private readonly outbox: Outbox | null;
  private readonly fingerprinter: Fingerprinter;
  private readonly observed: ObservedLog;
  private readonly delivery: Delivery | null;
  private readonly sweeper: Sweeper;
  private readonly loops: Periodic;
  /** Fast rescans after a kill: a program started again at once is seen within tens of ms. */
  private readonly burst = new RescanBurst(() => this.sweep());
  /** A scan as soon as a new process starts, between polls (Linux; new-process-watch.ts). */
  private readonly watch: NewProcessWatch | null;
  /** The screen captures of kills and of judges' requests (capture.ts), and their uploads. */
  private readonly capture: ScreenCapture;
  private readonly captures: CaptureUploads;
  /** The machine's screen, for the judges' messages and the captures' notice. */
  private readonly screen: MessageScreen;
  private readonly captureNotice: CaptureNotice;
  /** The push channel, once the loops run. */
  private pushed: PolicySocket | null = null;
  /** Whether `startLoops` ran: only then does the server show the agent online, and hear it stop. */
  private loopsStarted = false;
  private lastProblem: string | null = null;
  /** Whether the poll loop runs (`startScans`). */
  private scanning = false;
  private stopped = false;
  private stopping: Promise<void> | null = null;

  constructor(private readonly setup: AgentSetup) {
    const { options, client, config, log } = setup;
    this.current = config;
    this.dataDir = setup.dataDir;
    this.log = log;
    this.outbox = setup.storage?.outbox ?? null;
    this.counters = newStats();
    this.fingerprinter = options.fingerprinter ?? new Fingerprinter();
    this.loops = new Periodic((error) => log(TEXTS.unexpected(describeError(error))));
    this.observed = new ObservedLog({
      sender: client,
      onSent: () => this.healthy(),
      onFailed: (error) => this.problem(error, problemLine),
      onFull: (max) => log(TEXTS.observedFull(max)),
      onRefused: (n) => log(TEXTS.observedRefused(n)),
      onTurnedAway: (message) => log(TEXTS.observedTurnedAway(message)),
      onHeldBack: (waitMs, message) => log(TEXTS.observedHeldBack(waitMs, message)),
    });
    // The contest's `capture_screens` (absent from an older server: no captures).
    this.capture = new ScreenCapture(
      options.screenGrabber !== undefined ? options.screenGrabber : lazyDefaultGrabber(this.dataDir),
      () => this.current.capture_screens === true,
      log,
    );
    this.captures = new CaptureUploads({
      send: (body) => client.postCapture(body),
      attemptWaiting: (eventId) => this.outbox?.pending().some((a) => a.event_id === eventId) ?? false,
      log,
    });
    this.screen = options.messageScreen ?? desktopMessageScreen();
    this.captureNotice = new CaptureNotice(this.screen, this.dataDir, log);
    this.delivery = this.outbox ? this.newDelivery(this.outbox) : null;
    this.sweeper = new Sweeper(
      {
        lister: options.lister ?? defaultLister,
        killer: new Killer({
          graceMs: options.graceMs ?? DEFAULT_GRACE_MS,
          dryRun: options.dryRun ?? false,
          // A kill's captures are encoded as soon as they are taken.
          capture: handingGrabsTo(this.capture, this.captures),
        }),
        fingerprinter: this.fingerprinter,
        observed: this.observed,
        outbox: this.outbox,
        stats: this.counters,
        log,
        dataDir: this.dataDir,
        observing: () => this.current.observe,
        queued: () => this.delivery?.kick(),
        ended: () => {
          if (this.scanning) this.burst.kick();
        },
        captured: (eventId, shots) => this.captures.addKill(eventId, shots),
      },
      config.blocked,
      config.fingerprints,
    );
    this.watch = process.platform === 'linux' ? new NewProcessWatch(() => this.watchScan()) : null;
    void setup.network.follow(config.network);
    void setup.saved?.save(config);
  }

  /** The config currently applied. */
  get config(): AgentConfig {
    return this.current;
  }

  /** A snapshot of the counters. */
  get stats(): AgentStats {
    return {
      ...this.counters,
      pending: this.outbox?.size ?? 0,
      observedPending: this.observed.pending,
      hashed: this.fingerprinter.stats.hashed,
      pushConnected: this.pushed?.connected ?? false,
      networkVersion: this.setup.network.status().network_version,
      networkError: this.setup.network.status().network_error ?? null,
      captures: {
        ...this.capture.stats,
        ...this.captures.stats,
        waiting: this.captures.size,
      },
    };
  }

  /** One scan: end blocked processes and queue their attempts. Never runs two at once. */
  sweep(): Promise<void> {
    return this.sweeper.sweep();
  }

  /** The lines at start: team, contest, blocked count and poll; observing, dry run, what waits. */
  announce(): void {
    const config = this.current;
    this.log(TEXTS.started(config.team.name, config.contest.calendar, config.blocked.length, this.pollMs()));
    if (config.observe) this.log(TEXTS.observeOn);
    if (this.setup.options.dryRun) this.log(TEXTS.dryRunNotice);
    if (this.outbox && this.outbox.size > 0) this.log(TEXTS.pendingAtStart(this.outbox.size));
  }

  /** Starts the loops: poll at once, heartbeat at once, then config, probe and report on their periods. */
  startLoops(): void {
    const { options, client } = this.setup;
    this.loopsStarted = true;
    if (options.push ?? true) {
      const screen = this.screen;
      this.pushed = new PolicySocket(
        client.server,
        options.key.trim(),
        {
          apply: (config) => {
            this.counters.policiesPushed += 1;
            this.applyConfig(config);
          },
          message: (message) => {
            this.log(TEXTS.message(message.text));
            return screen.show(message);
          },
          notShown: (_message, reason, retryMs) => this.log(TEXTS.messageNotShown(reason, retryMs)),
          captureRequested: (requestId) => this.captureRequested(requestId),
        },
        // The server's addresses as the network policy in force lets them through.
        this.setup.network.serverLookup,
      );
    }
    // With the push channel up, the HTTP read is only the fallback.
    const refreshMs = () =>
      options.configRefreshMs ??
      (this.pushed?.connected ? AGENT_CONFIG_REFRESH_PUSHED_MS : AGENT_CONFIG_REFRESH_MS);
    const retryProbeMs = options.retryProbeMs ?? AGENT_RETRY_PROBE_MS;
    const observedReportMs = options.observedReportMs ?? OBSERVED_SEND_MS;
    this.startScans();
    this.loops.every(
      () => this.heartbeat(),
      () => this.heartbeatMs(),
      0,
    );
    this.loops.every(() => this.refreshConfig(), refreshMs, refreshMs());
    const delivery = this.delivery;
    if (delivery)
      this.loops.every(
        async () => {
          await delivery.probeServer();
        },
        () => retryProbeMs,
        retryProbeMs,
      );
    this.loops.every(
      () => this.report(),
      () => observedReportMs,
      observedReportMs,
    );
    // Captures whose backoff ended go now (one whose attempt was just stored went then: `onStored`).
    this.loops.every(
      async () => this.captures.kick(),
      () => retryProbeMs,
      retryProbeMs,
    );
    this.captureNotice.follow(this.current);
  }

  /**
   * A judge's «Ver pantalla»: the screen now (shared with a grab in progress), uploaded as `pedida`
   * whatever the contest's `capture_screens` says (the server asks only its own judges' requests).
   */
  private captureRequested(requestId: string): void {
    this.log(`Un juez pidió ver la pantalla: se toma una captura.`);
    this.captures.warm();
    this.captures.addRequested(requestId, this.capture.grab());
  }

  /**
   * Starts the poll loop alone, at once (a second call does nothing). `startLoops` calls it; a start
   * without the server (connecting-agent.ts) calls it first, so the saved config is enforced while
   * nothing else runs: no heartbeat, no push channel, no config read.
   */
  startScans(): void {
    if (this.scanning) return;
    this.scanning = true;
    this.loops.every(
      () => this.poll(),
      () => this.pollMs(),
      0,
    );
    this.watch?.start();
  }

  /**
   * The server answered after a start without it (connecting-agent.ts): `config` replaces the saved
   * one (logging what changed), and the agent goes on exactly as a normal start: the start lines,
   * then every loop (the scans already run).
   */
  goOnline(config: AgentConfig): void {
    // The connecting agent said it was back; a failed send while offline need not say it again.
    this.lastProblem = null;
    this.healthy();
    this.applyConfig(config);
    this.announce();
    this.startLoops();
  }

  /**
   * Sends every pending attempt now (after a scan in progress), ignoring the backoff. Never throws:
   * what could not be sent stays queued.
   */
  async flush(): Promise<void> {
    // What a scan in progress is about to queue belongs to "now" too.
    await this.sweeper.settled();
    await Promise.all([this.delivery?.flush(), this.current.observe ? this.observed.send() : undefined]);
  }

  /** Stops the timers, aborts requests in flight, waits for a scan in progress, releases the lock. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.stopped = true;
      this.pushed?.close();
      const running = [...this.loops.stop(), this.burst.stop(), this.watch?.stop()];
      // Best effort: what ran since the last report goes now, if the server answers soon.
      await this.sweeper.settled();
      if (this.current.observe && this.observed.pending > 0)
        await atMost(STOP_REPORT_MS, this.observed.send());
      // Said while running loops only (a `--once` run never beat); a failure is the silent agent's case.
      if (this.loopsStarted)
        await atMost(
          STOP_NOTICE_MS,
          this.setup.client.stopped({ hostname: hostname().slice(0, 255) }).catch(() => undefined),
        );
      this.setup.lifetime.abort();
      // The network rules stay in force: a stopped agent does not open the network.
      await Promise.allSettled([
        this.sweeper.settled(),
        this.delivery?.idle(),
        this.captures.stop(),
        this.setup.network.stop(),
        this.setup.saved?.idle(),
        ...running,
      ]);
      await this.setup.storage?.lock.release();
    })();
    return this.stopping;
  }

  private pollMs(): number {
    return this.setup.options.pollMs ?? sanePeriod(this.current.poll_ms, AGENT_POLL_MS, 100);
  }

  private heartbeatMs(): number {
    return this.setup.options.heartbeatMs ?? sanePeriod(this.current.heartbeat_ms, AGENT_HEARTBEAT_MS, 1_000);
  }

  /** One round of the poll loop: a scan, then send what it queued. */
  private async poll(): Promise<void> {
    this.watch?.scanning();
    await this.sweep();
    this.delivery?.kick();
  }

  /** The watch's scan: a poll round; whether it ended (or, in dry run, found) a blocked program. */
  private async watchScan(): Promise<boolean> {
    const acted = () => this.counters.killed + this.counters.failed + this.counters.detected;
    const before = acted();
    await this.poll();
    return acted() > before;
  }

  private async heartbeat(): Promise<void> {
    try {
      // What the lab board shows of this machine, and the policy it applies now.
      await this.setup.client.heartbeat({
        hostname: hostname().slice(0, 255),
        version: AGENT_VERSION,
        os: `${platform()} ${release()}`.slice(0, 100),
        clock: new Date().toISOString(),
        policy_version: this.current.policy_version.slice(0, 64),
        ...this.setup.network.status(),
      });
      this.healthy();
    } catch (error) {
      // A 429 (beats too close together, `AGENT_PRESENCE_LIMITS`) is the server answering: the next
      // beat comes at its period, and the agent is not offline.
      if (error instanceof AgentApiError && error.status === 429) return;
      this.problem(error, problemLine);
    }
  }

  private async refreshConfig(): Promise<void> {
    try {
      this.applyConfig(await this.setup.client.getConfig());
      this.healthy();
    } catch (error) {
      this.problem(error, problemLine);
    }
  }

  /** Reports what ran on the machine, while the contest observes and something waits. */
  private async report(): Promise<void> {
    if (this.current.observe && this.observed.pending > 0) await this.observed.send();
  }

  /** Takes a new config without restarting: the scans follow its blocked list and fingerprints. */
  private applyConfig(next: AgentConfig): void {
    void this.setup.saved?.save(next);
    const before = this.current;
    this.current = next;
    if (blockedKey(next.blocked) !== blockedKey(before.blocked)) {
      this.sweeper.setBlocked(next.blocked);
      this.log(TEXTS.blockedUpdated(next.blocked.length));
    }
    if (fingerprintsKey(next.fingerprints) !== fingerprintsKey(before.fingerprints)) {
      this.sweeper.setFingerprints(next.fingerprints);
      this.log(TEXTS.fingerprintsUpdated(next.fingerprints.length));
    }
    void this.setup.network.follow(next.network);
    if (this.loopsStarted) this.captureNotice.follow(next);
    if (next.observe !== before.observe) {
      // Turned off: nothing more is reported, not even what waits (the contest no longer wants it).
      if (!next.observe) this.observed.reset();
      this.log(next.observe ? TEXTS.observeOn : TEXTS.observeOff);
    }
  }

  private newDelivery(outbox: Outbox): Delivery {
    const { client } = this.setup;
    return new Delivery(outbox, client, {
      // Their captures go the moment the server stored them (it takes one only for a stored attempt).
      onStored: () => this.captures.kick(),
      onSent: (batch) => {
        this.counters.acknowledged += batch.acknowledged;
        this.healthy();
        if (batch.acknowledged > 0) this.log(TEXTS.sent(batch.acknowledged, batch.numberAttempts));
      },
      onRefused: (refusal) => {
        this.counters.refused += refusal.count;
        if (!this.stopped) this.log(TEXTS.refused(refusal.count, refusal.reasons, refusal.file));
      },
      onFailed: (error, pending) => this.problem(error, (reason) => TEXTS.sendFailed(pending, reason)),
      probe: () => client.probe(),
    });
  }

  /** The server answered: online again (said once, when it had not been). */
  private healthy(): void {
    this.counters.online = true;
    this.counters.lastError = null;
    if (this.lastProblem !== null && !this.stopped) this.log(TEXTS.online);
    this.lastProblem = null;
  }

  /** The server failed: offline, said when the reason starts or changes. */
  private problem(error: unknown, line: (reason: string) => string): void {
    if (this.stopped) return;
    const reason = describeError(error);
    this.counters.online = false;
    this.counters.lastError = reason;
    if (reason !== this.lastProblem) this.log(line(reason));
    this.lastProblem = reason;
  }
}

const problemLine = (reason: string) => `${TEXTS.offline(reason)} ${TEXTS.keepsRunning}`;

/** Counters at start: all zero, online, no network policy applied yet. */
export function newStats(): AgentStats {
  return {
    sweeps: 0,
    killed: 0,
    failed: 0,
    detected: 0,
    queued: 0,
    acknowledged: 0,
    refused: 0,
    pending: 0,
    observedPending: 0,
    hashed: 0,
    online: true,
    networkVersion: 0,
    networkError: null,
    lastError: null,
    pushConnected: false,
    policiesPushed: 0,
  };
}

/** A period from the server, or the fallback when it is missing or absurd (ms). */
function sanePeriod(value: number, fallback: number, min: number): number {
  return Number.isInteger(value) && value > 0 ? Math.max(min, value) : fallback;
}

/** Order-insensitive identity of a blocked list, to detect changes. */
function blockedKey(blocked: readonly string[]): string {
  return blocked
    .map((name) => name.trim())
    .sort()
    .join('\n');
}

/** Order-insensitive identity of a fingerprint list, to detect changes. */
function fingerprintsKey(fingerprints: readonly AgentFingerprint[]): string {
  return fingerprints
    .map((f) => `${f.sha256} ${f.process}`)
    .sort()
    .join('\n');
}
