/**
 * A judge blocking and unblocking teams at a steady rate (toggles per second) through
 * `GET /api/descalificarTeam/{id}` as admin, round-robin over the server processes, a random team each
 * time, at most one toggle in flight per team and `maxInFlight` overall (a backlog above one second
 * is dropped, counted in `skipped`). Each answer is the new board row: its `version` names the push.
 * Times are ms since the run's t0 (metrics.now()).
 */
import type { BoardTeam } from '@concurso/shared';
import type { HttpClient } from './http.js';
import type { Change } from './matching.js';
import { Histogram, now } from './metrics.js';

/** Pump settings. */
export interface TogglePumpOptions {
  http: HttpClient;
  urls: string[];
  adminToken: string;
  teamIds: number[];
  /** Toggles per second. */
  ratePerS: number;
  maxInFlight: number;
  t0: number;
  onChange: (change: Change) => void;
}

/** The toggles' traffic and its counters. */
export class TogglePump {
  sent = 0;
  acked = 0;
  errors = 0;
  skipped = 0;
  inFlight = 0;
  /** Toggle round trip (ms). */
  readonly http = new Histogram();
  private readonly busy = new Set<number>();
  private timer?: NodeJS.Timeout;
  private scheduled = 0;
  private nextUrl = 0;
  private readonly idle = new Set<() => void>();

  constructor(private readonly o: TogglePumpOptions) {}

  /** Starts toggling. */
  start(): void {
    if (this.o.ratePerS <= 0 || this.o.teamIds.length === 0) return;
    const startedAt = now();
    this.timer = setInterval(() => {
      let due = Math.floor((this.o.ratePerS * (now() - startedAt)) / 1000) - this.scheduled;
      if (due > this.o.ratePerS) {
        this.skipped += due - Math.ceil(this.o.ratePerS);
        this.scheduled += due - Math.ceil(this.o.ratePerS);
        due = Math.ceil(this.o.ratePerS);
      }
      for (; due > 0 && this.inFlight < this.o.maxInFlight; due--) {
        const team = this.pickTeam();
        if (team === undefined) break;
        this.scheduled++;
        this.send(team);
      }
    }, 20);
  }

  private pickTeam(): number | undefined {
    const ids = this.o.teamIds;
    for (let tries = 0; tries < 20; tries++) {
      const id = ids[Math.floor(Math.random() * ids.length)]!;
      if (!this.busy.has(id)) return id;
    }
    return undefined;
  }

  private send(team: number): void {
    const url = this.o.urls[this.nextUrl++ % this.o.urls.length]!;
    this.busy.add(team);
    this.inFlight++;
    this.sent++;
    const sent = now() - this.o.t0;
    this.o.http
      .request<{ data: BoardTeam }>(`${url}/api/descalificarTeam/${team}`, { token: this.o.adminToken })
      .then((res) => {
        this.http.add(now() - this.o.t0 - sent);
        if (res.status !== 200) {
          this.errors++;
          return;
        }
        this.acked++;
        this.o.onChange({
          kind: 'toggle',
          team,
          n: res.json.data.number_attempts,
          version: res.json.data.version,
          sent,
        });
      })
      .catch(() => this.errors++)
      .finally(() => {
        this.busy.delete(team);
        this.inFlight--;
        if (this.inFlight === 0) for (const resolve of this.idle) resolve();
      });
  }

  /** Stops toggling and waits (at most `waitMs`) for the toggles in flight. */
  async stop(waitMs = 35_000): Promise<void> {
    clearInterval(this.timer);
    if (this.inFlight === 0) return;
    await Promise.race([
      new Promise<void>((resolve) => this.idle.add(resolve)),
      new Promise((r) => setTimeout(r, waitMs)),
    ]);
  }
}
