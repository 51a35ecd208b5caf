/**
 * M simulated machine agents, each with its own team key. Like the real agent, an agent has at most
 * one attempts POST in flight. Attempts go out at a steady TOTAL rate (attempts per second) in
 * batches of `batchMin`..`batchMax` attempts with unique event ids, spread round-robin over the free
 * agents and their server processes; at most `maxInFlight` POSTs are in flight overall. When the
 * server cannot keep up the schedule falls behind; a backlog above half a second of attempts is
 * dropped (counted in `skipped`) instead of piling up. Heartbeats go every 10 s per agent, spread,
 * at most one in flight per agent.
 * Times are ms since the run's t0 (metrics.now()).
 */
import { randomBytes } from 'node:crypto';
import { AGENT_HEARTBEAT_MS, type AgentAttemptsResult } from '@concurso/shared';
import { mapLimit, type HttpClient } from './http.js';
import type { Change } from './matching.js';
import { Histogram, now } from './metrics.js';

/** One simulated agent. */
export interface SimAgent {
  teamId: number;
  key: string;
  /** Base URL of the server process it talks to. */
  url: string;
}

/** Fleet settings. */
export interface AgentFleetOptions {
  http: HttpClient;
  agents: SimAgent[];
  /** Attempts per second over all agents. */
  ratePerS: number;
  batchMin: number;
  batchMax: number;
  /** Most attempts POSTs in flight at once over all agents. */
  maxInFlight: number;
  /** Origin of times (ms, metrics.now()). */
  t0: number;
  /** Called for every answered POST that counted something. */
  onChange: (change: Change) => void;
}

const PROCESS_NAMES = ['chrome.exe', 'Discord.exe', 'AnyDesk.exe', 'firefox.exe', 'Telegram.exe'];
/** Scheduler tick (ms). */
const TICK_MS = 5;

/** The agents' traffic and its counters. */
export class AgentFleet {
  /** Attempts in POSTs sent / counted by the server (`data.counted` of 200 answers). */
  attemptsSent = 0;
  attemptsAcked = 0;
  /** Attempts the schedule dropped because the server did not keep up. */
  skipped = 0;
  requests = 0;
  errors = 0;
  /** Status (or 'network') -> count, for failed requests. */
  readonly errorKinds: Record<string, number> = {};
  heartbeats = 0;
  heartbeatErrors = 0;
  /** Heartbeats not sent because the agent's previous one was still in flight. */
  heartbeatsSkipped = 0;
  inFlight = 0;
  /** Attempts POST round trip (ms). */
  readonly http = new Histogram();
  /** Heartbeat round trip (ms). */
  readonly httpHeartbeat = new Histogram();
  /** Attempts acknowledged per second of the run (by answer time). */
  readonly ackedPerSecond: number[] = [];

  private readonly prefix = randomBytes(3).toString('hex');
  private readonly busy: boolean[];
  private readonly seq: number[];
  private next = 0;
  private nextSize: number;
  private timer?: NodeJS.Timeout;
  private heartbeatTimers: NodeJS.Timeout[] = [];
  private runStart = 0;
  private scheduled = 0;
  private readonly idle = new Set<() => void>();

  constructor(private readonly o: AgentFleetOptions) {
    this.busy = o.agents.map(() => false);
    this.seq = o.agents.map(() => 0);
    this.nextSize = this.drawSize();
  }

  private drawSize(): number {
    return this.o.batchMin + Math.floor(Math.random() * (this.o.batchMax - this.o.batchMin + 1));
  }

  /** Before the run: every agent reads its config and sends a first heartbeat (20 at a time). */
  async warmUp(): Promise<void> {
    await mapLimit(this.o.agents, 20, async (a) => {
      await this.o.http.ok(`${a.url}/api/agent/config`, { token: a.key });
      await this.o.http.ok(`${a.url}/api/agent/heartbeat`, { token: a.key, body: {} });
    });
  }

  /** Starts heartbeats (spread over 10 s) without attempts. */
  startHeartbeats(): void {
    this.o.agents.forEach((a, i) => {
      let beating = false;
      const beat = () => {
        // Like the real agent, never two heartbeats of one agent at once.
        if (beating) {
          this.heartbeatsSkipped++;
          return;
        }
        beating = true;
        const started = now();
        this.o.http
          .request(`${a.url}/api/agent/heartbeat`, {
            token: a.key,
            body: { hostname: `banco-${i}`, version: 'bench' },
          })
          .then((res) => {
            this.httpHeartbeat.add(now() - started);
            this.heartbeats++;
            if (res.status !== 200) this.heartbeatErrors++;
          })
          .catch(() => this.heartbeatErrors++)
          .finally(() => (beating = false));
      };
      const first = setTimeout(() => {
        beat();
        this.heartbeatTimers.push(setInterval(beat, AGENT_HEARTBEAT_MS));
      }, Math.random() * AGENT_HEARTBEAT_MS);
      this.heartbeatTimers.push(first);
    });
  }

  /** Starts the attempts schedule; `runStart` (ms since t0) is second 0 of the run. */
  start(runStart: number): void {
    this.runStart = runStart;
    const startedAt = now();
    this.timer = setInterval(() => this.tick(startedAt), TICK_MS);
  }

  private tick(startedAt: number): void {
    const target = (this.o.ratePerS * (now() - startedAt)) / 1000;
    let due = target - this.scheduled;
    const cap = this.o.ratePerS / 2;
    if (due > cap) {
      const drop = Math.floor(due - cap);
      this.skipped += drop;
      this.scheduled += drop;
      due -= drop;
    }
    while (this.inFlight < this.o.maxInFlight && due >= this.nextSize) {
      const agent = this.freeAgent();
      if (agent < 0) break;
      const size = this.nextSize;
      this.nextSize = this.drawSize();
      this.scheduled += size;
      due -= size;
      this.send(agent, size);
    }
  }

  /** The next agent without a POST in flight, round-robin; -1 when all are busy. */
  private freeAgent(): number {
    const n = this.o.agents.length;
    for (let step = 0; step < n; step++) {
      const i = (this.next + step) % n;
      if (!this.busy[i]) {
        this.next = (i + 1) % n;
        return i;
      }
    }
    return -1;
  }

  private send(i: number, size: number): void {
    const agent = this.o.agents[i]!;
    const occurred = new Date().toISOString();
    const attempts = Array.from({ length: size }, () => ({
      event_id: `${this.prefix}-${i}-${this.seq[i]!++}`,
      process: PROCESS_NAMES[Math.floor(Math.random() * PROCESS_NAMES.length)]!,
      occurred_at: occurred,
    }));
    this.busy[i] = true;
    this.inFlight++;
    this.requests++;
    this.attemptsSent += size;
    const sent = now() - this.o.t0;
    this.o.http
      .request<{ data: AgentAttemptsResult }>(`${agent.url}/api/agent/attempts`, {
        token: agent.key,
        body: { attempts },
      })
      .then((res) => {
        const at = now() - this.o.t0;
        this.http.add(at - sent);
        if (res.status !== 200) {
          this.fail(String(res.status));
          return;
        }
        const { counted, number_attempts } = res.json.data;
        this.attemptsAcked += counted;
        const second = Math.max(0, Math.floor((at - this.runStart) / 1000));
        while (this.ackedPerSecond.length <= second) this.ackedPerSecond.push(0);
        this.ackedPerSecond[second]! += counted;
        if (counted > 0)
          this.o.onChange({ kind: 'attempts', team: agent.teamId, n: number_attempts, version: -1, sent });
      })
      .catch(() => this.fail('network'))
      .finally(() => {
        this.busy[i] = false;
        this.inFlight--;
        if (this.inFlight === 0) for (const resolve of this.idle) resolve();
      });
  }

  private fail(kind: string): void {
    this.errors++;
    this.errorKinds[kind] = (this.errorKinds[kind] ?? 0) + 1;
  }

  /** Stops sending attempts and waits (at most `waitMs`) for the POSTs in flight. */
  async stopAttempts(waitMs = 35_000): Promise<void> {
    clearInterval(this.timer);
    if (this.inFlight === 0) return;
    await Promise.race([
      new Promise<void>((resolve) => this.idle.add(resolve)),
      new Promise((r) => setTimeout(r, waitMs)),
    ]);
  }

  /** Stops the heartbeats. */
  stopHeartbeats(): void {
    for (const t of this.heartbeatTimers) clearTimeout(t);
    this.heartbeatTimers = [];
  }
}
