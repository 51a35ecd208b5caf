import { randomBytes } from 'node:crypto';
import type { AgentAttempt } from '@concurso/shared';

/**
 * A scripted stand-in for the machine agents of a lab (not the agent binary): attempts are made at a
 * steady rate over the teams, each kept in its team's outbox until a 2xx answer lists its `event_id`
 * in `data.accepted`, and resent with the same `event_id` until then (the server counts an event id
 * once per team). Like the real agent, a team has at most one request in flight.
 */

/** One team's agent: its key and the server process it reports to (`http://127.0.0.1:<port>`). */
export interface AgentTeam {
  id: number;
  key: string;
  url: string;
}

/** One `POST /api/agent/attempts` as it went. Times are `Date.now()` values (ms). */
export interface AgentRequest {
  teamId: number;
  url: string;
  sentAt: number;
  answeredAt: number;
  /** HTTP status, or `'error'` (no answer: refused, reset) or `'timeout'` (no answer in time). */
  status: number | 'error' | 'timeout';
  /** Attempts in the request. */
  size: number;
  /** Event ids the answer acknowledged. */
  acked: number;
  /** `success` and `message` of a non-2xx answer (to check its shape and language). */
  failure?: { success?: unknown; message?: unknown };
}

/** Options of `ScriptedAgent`. */
export interface ScriptedAgentOptions {
  /** New attempts per second over all teams (default 20). */
  ratePerSecond?: number;
  /**
   * A request with no answer after this is abandoned and its attempts resent, in ms (default 10 000, the
   * real agent's `DEFAULT_REQUEST_TIMEOUT_MS`): an answer later than this is a hang to an agent.
   */
  requestTimeoutMs?: number;
  /** Pause of a team after a failed request, in ms (default 250). */
  retryDelayMs?: number;
}

interface Outbox {
  team: AgentTeam;
  pending: Map<string, AgentAttempt>;
  inFlight: boolean;
  retryAt: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends attempts for `teams` at a steady rate while running; see the module comment. */
export class ScriptedAgent {
  /** Every request made, in the order they were answered. */
  readonly requests: AgentRequest[] = [];
  private readonly outboxes: Outbox[];
  private readonly rate: number;
  private readonly requestTimeoutMs: number;
  private readonly retryDelayMs: number;
  private readonly run = randomBytes(3).toString('hex');
  private made = 0;
  private acked = new Set<string>();
  private producing = false;
  private producedBefore = 0;
  private producingSince = 0;
  private nextTeam = 0;
  private ticker: NodeJS.Timeout | null = null;
  private stopped = false;
  private loops: Promise<void>[] = [];

  constructor(teams: AgentTeam[], options: ScriptedAgentOptions = {}) {
    this.outboxes = teams.map((team) => ({ team, pending: new Map(), inFlight: false, retryAt: 0 }));
    this.rate = options.ratePerSecond ?? 20;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    this.retryDelayMs = options.retryDelayMs ?? 250;
    this.loops = this.outboxes.map((outbox) => this.deliver(outbox));
  }

  /** Attempts made so far (each a distinct event id). */
  get sent(): number {
    return this.made;
  }

  /** Attempts acknowledged so far (distinct event ids). */
  get acknowledged(): number {
    return this.acked.size;
  }

  /** Attempts still waiting in an outbox. */
  get pending(): number {
    return this.outboxes.reduce((sum, outbox) => sum + outbox.pending.size, 0);
  }

  /** Starts (or resumes) making attempts at the steady rate. */
  resume(): void {
    if (this.producing || this.stopped) return;
    this.producing = true;
    this.producedBefore = this.made;
    this.producingSince = Date.now();
    // Made by elapsed time, not by counting ticks: a late timer does not lower the rate.
    this.ticker = setInterval(() => {
      const due = Math.floor(((Date.now() - this.producingSince) * this.rate) / 1_000);
      while (this.made - this.producedBefore < due) this.makeAttempt();
    }, 20);
  }

  /** Stops making new attempts; the outboxes keep being delivered. */
  pause(): void {
    this.producing = false;
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
  }

  /** Resolves true once every outbox is empty and nothing is in flight, false after `timeoutMs` (ms). */
  async drained(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.outboxes.some((outbox) => outbox.pending.size > 0 || outbox.inFlight)) {
      if (Date.now() > deadline) return false;
      await sleep(50);
    }
    return true;
  }

  /** Stops producing and delivering; resolves when the requests in flight are over. */
  async stop(): Promise<void> {
    this.pause();
    this.stopped = true;
    await Promise.all(this.loops);
  }

  private makeAttempt(): void {
    const outbox = this.outboxes[this.nextTeam++ % this.outboxes.length]!;
    this.made += 1;
    const attempt: AgentAttempt = {
      event_id: `falla-${this.run}-${outbox.team.id}-${this.made}`,
      process: 'juego-prohibido.exe',
      occurred_at: new Date().toISOString(),
    };
    outbox.pending.set(attempt.event_id, attempt);
  }

  /** One team's delivery loop: sends everything pending in one request, one request at a time. */
  private async deliver(outbox: Outbox): Promise<void> {
    while (!this.stopped) {
      if (outbox.pending.size === 0 || Date.now() < outbox.retryAt) {
        await sleep(10);
        continue;
      }
      const batch = [...outbox.pending.values()].slice(0, 500);
      outbox.inFlight = true;
      const ok = await this.post(outbox, batch);
      outbox.inFlight = false;
      if (!ok) outbox.retryAt = Date.now() + this.retryDelayMs;
    }
  }

  /** Posts `batch`; drops the acknowledged ones from the outbox. Answers whether the request succeeded. */
  private async post(outbox: Outbox, batch: AgentAttempt[]): Promise<boolean> {
    const { team } = outbox;
    const sentAt = Date.now();
    const record: AgentRequest = {
      teamId: team.id,
      url: team.url,
      sentAt,
      answeredAt: 0,
      status: 'error',
      size: batch.length,
      acked: 0,
    };
    try {
      const res = await fetch(`${team.url}/api/agent/attempts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${team.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ attempts: batch }),
        signal: AbortSignal.timeout(this.requestTimeoutMs),
      });
      record.status = res.status;
      const body = (await res.json().catch(() => null)) as {
        success?: unknown;
        message?: unknown;
        data?: { accepted?: unknown };
      } | null;
      if (res.ok && Array.isArray(body?.data?.accepted)) {
        for (const id of body.data.accepted as string[]) {
          if (outbox.pending.delete(id)) {
            this.acked.add(id);
            record.acked += 1;
          }
        }
      } else if (!res.ok) {
        record.failure = { success: body?.success, message: body?.message };
      }
      return res.ok;
    } catch (err) {
      record.status = (err as Error).name === 'TimeoutError' ? 'timeout' : 'error';
      return false;
    } finally {
      record.answeredAt = Date.now();
      this.requests.push(record);
    }
  }
}
