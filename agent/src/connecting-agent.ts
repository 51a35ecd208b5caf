/**
 * The agent when its server did not answer at start (a machine booting before the network or the
 * server, a server restarting): it never exits for that (docs/design.md section 6). Meanwhile it enforces
 * the configuration it last received (saved-config.ts) with the scans alone, or nothing when none was
 * ever saved, while its network rules stay as network-guard.ts put them back. It asks the server again
 * with a backoff (backoff.ts: 1 s, 2 s, 4 s... up to 30 s), and between two tries a cheap anonymous
 * probe (`GET /api/health`, every `retryProbeMs`) lets it ask at once when the server comes back. It
 * says so in one line at most once a minute. When the server answers, the agent goes on exactly as a
 * normal start (start lines, heartbeat, push channel, config reads). A permanent refusal (a wrong or
 * revoked key, no contest, another agent on the same data folder) stops it as at a normal start: the
 * error goes to `onFatal`.
 */
import type { AgentConfig } from '@concurso/shared';
import type { AgentHandle, AgentStats } from './agent-options.js';
import { Backoff } from './backoff.js';
import type { AgentClient } from './client.js';
import { AgentApiError, AgentError, describeError } from './errors.js';
import type { NetworkGuard } from './network/network-guard.js';
import { Periodic } from './periodic.js';
import { newStats, type RunningAgent } from './running-agent.js';
import { TEXTS } from './texts.js';

/** Shortest time between two «Sin conexión con el servidor…» lines (ms). */
const WAITING_LOG_MS = 60_000;

/**
 * What a failed config read means at start: a permanent refusal (`fatal`, the `AgentError` a normal
 * start throws, one Spanish line) or a transient failure worth retrying (no connection, timeout, 5xx,
 * 429: `fatal` null).
 */
export function startFailure(error: unknown): { fatal: AgentError | null; error: unknown } {
  if (!(error instanceof AgentApiError))
    return { fatal: new AgentError('server', TEXTS.unexpected(describeError(error))), error };
  if (error.transient) return { fatal: null, error };
  const code =
    error.kind === 'unauthorized' ? 'unauthorized' : error.kind === 'not-found' ? 'no-contest' : 'server';
  return { fatal: new AgentError(code, error.message, { cause: error }), error };
}

/** What agent.ts hands the connecting agent. */
export interface ConnectingSetup {
  client: AgentClient;
  /** Aborted at stop: ends the requests in flight. */
  lifetime: AbortController;
  /** The network policy, already restored from the last run. */
  network: NetworkGuard;
  log: (line: string) => void;
  /** The data folder (already checked). */
  dataDir: string;
  /** The saved configuration enforced meanwhile, or null (nothing is enforced until the server answers). */
  saved: AgentConfig | null;
  /**
   * Builds the running agent of `config` (its outbox and lock opened, no loop started; agent.ts's
   * `prepare`). @throws AgentError ('locked', 'data-dir').
   */
  prepare: (config: AgentConfig) => Promise<RunningAgent>;
  /** Time between two probes of the server (ms). */
  retryProbeMs: number;
  /** Told a permanent refusal once the server answers; the agent has stopped by then. */
  onFatal: ((error: AgentError) => void) | undefined;
  /** Replaces the backoff of the config reads (tests). */
  backoff?: Backoff;
}

/** An agent started without its server. `start` builds it; see the file's comment. */
export class ConnectingAgent implements AgentHandle {
  /** The running agent: of the saved config (scans only) until connected, then the connected one. */
  private inner: RunningAgent | null = null;
  private connected = false;
  private lastError: string;
  /** When the last «Sin conexión…» line was written (ms since epoch). */
  private saidAt = Number.NEGATIVE_INFINITY;
  /** A probe or a try found the server down since the last try: a probe that finds it up may try early. */
  private sawDown = true;
  private readonly backoff: Backoff;
  private readonly loop: Periodic;
  private connecting: Promise<void> | null = null;
  private stopping: Promise<void> | null = null;

  private constructor(
    private readonly setup: ConnectingSetup,
    firstError: unknown,
  ) {
    this.backoff = setup.backoff ?? new Backoff();
    this.lastError = describeError(firstError);
    this.loop = new Periodic((error) => setup.log(TEXTS.unexpected(describeError(error))));
  }

  /**
   * Starts enforcing `setup.saved` (if any) and trying the server; `firstError` is why the first read
   * failed (transient). @throws AgentError when the saved config's outbox or lock cannot be opened
   * ('locked': another agent of the team runs on this data folder).
   */
  static async start(setup: ConnectingSetup, firstError: unknown): Promise<ConnectingAgent> {
    const agent = new ConnectingAgent(setup, firstError);
    if (setup.saved) {
      agent.inner = await setup.prepare(setup.saved);
      setup.log(TEXTS.startedOffline(setup.saved.team.name, setup.saved.blocked.length));
      agent.inner.startScans();
    }
    agent.failed(firstError);
    agent.loop.every(
      () => agent.tryConnect(),
      () => setup.retryProbeMs,
      setup.retryProbeMs,
    );
    return agent;
  }

  /** The config applied: the saved one until the server answers. @throws AgentError when there is none yet. */
  get config(): AgentConfig {
    if (this.inner) return this.inner.config;
    throw new AgentError(
      'unreachable',
      TEXTS.waitingForServer(this.setup.client.server, false, this.lastError),
    );
  }

  get dataDir(): string {
    return this.setup.dataDir;
  }

  /** The running agent's counters; offline (and without the push channel) until the server answers. */
  get stats(): AgentStats {
    const status = this.setup.network.status();
    const base: AgentStats = this.inner?.stats ?? {
      ...newStats(),
      online: false,
      networkVersion: status.network_version,
      networkError: status.network_error ?? null,
    };
    return this.connected
      ? base
      : { ...base, online: false, pushConnected: false, lastError: this.lastError };
  }

  sweep(): Promise<void> {
    return this.inner?.sweep() ?? Promise.resolve();
  }

  flush(): Promise<void> {
    return this.inner?.flush() ?? Promise.resolve();
  }

  /** Stops trying, then stops the running agent (or, without one, the network guard and the requests). */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      await Promise.allSettled(this.loop.stop());
      await this.connecting;
      if (this.inner) return this.inner.stop();
      this.setup.lifetime.abort();
      await this.setup.network.stop();
    })();
    return this.stopping;
  }

  /** One round: when the backoff allows it, or a probe finds the server back, reads the config. */
  private async tryConnect(): Promise<void> {
    if (this.connected || this.stopping) return;
    if (!this.backoff.due) {
      if (!(await this.setup.client.probe())) {
        this.sawDown = true;
        return;
      }
      if (!this.sawDown || this.stopping) return;
    }
    let config: AgentConfig;
    try {
      config = await this.setup.client.getConfig();
    } catch (error) {
      if (this.stopping) return;
      const { fatal } = startFailure(error);
      if (fatal) return this.refused(fatal);
      this.failed(error);
      return;
    }
    if (this.stopping) return;
    this.connecting = this.connect(config);
    await this.connecting;
  }

  /** The server answered: the agent goes on as a normal start. */
  private async connect(config: AgentConfig): Promise<void> {
    void this.loop.stop();
    this.setup.log(TEXTS.online);
    if (this.inner) {
      this.inner.goOnline(config);
    } else {
      let agent: RunningAgent;
      try {
        agent = await this.setup.prepare(config);
      } catch (error) {
        return this.refused(error instanceof AgentError ? error : startFailure(error).fatal!);
      }
      this.inner = agent;
      agent.announce();
      agent.startLoops();
    }
    this.connected = true;
  }

  /** A transient failure: backs off, and says so at most once a minute. */
  private failed(error: unknown): void {
    const retryAfterMs = error instanceof AgentApiError ? error.retryAfterMs : undefined;
    if (retryAfterMs !== undefined) this.backoff.failAtLeast(retryAfterMs);
    else this.backoff.fail();
    // Only a server that did not answer at all may be tried early when a probe finds it: one that
    // answered with an error would get a read every second.
    this.sawDown =
      error instanceof AgentApiError &&
      (error.kind === 'unreachable' ||
        error.kind === 'timeout' ||
        ((error.status ?? 0) >= 502 && (error.status ?? 0) <= 504));
    this.lastError = describeError(error);
    const now = Date.now();
    if (now - this.saidAt < WAITING_LOG_MS) return;
    this.saidAt = now;
    this.setup.log(
      TEXTS.waitingForServer(this.setup.client.server, this.setup.saved !== null, this.lastError),
    );
  }

  /** A permanent refusal: stops everything, then tells `onFatal`. */
  private async refused(error: AgentError): Promise<void> {
    this.lastError = error.message;
    void this.loop.stop();
    if (this.inner) await this.inner.stop();
    else {
      this.setup.lifetime.abort();
      await this.setup.network.stop();
    }
    this.setup.onFatal?.(error);
  }
}
