/**
 * Matching pushes to the requests that caused them, after the run (all times in ms since `t0`).
 *
 * What is known:
 * - Every push carries whole board rows (`team.updated` one row, `teams.updated` several), and the
 *   server bumps a team's `version` with every change, so (team id, version) names one row. Screens
 *   store the arrival of each row they get under that pair (screen-worker.ts).
 * - The server gathers changes in a short push window and keeps only the newest row of each team,
 *   so a change may never travel as its own row: a later row of the same team carries it. A change
 *   therefore counts as ARRIVED on a screen when that screen got a row of the team at least as new:
 *     - a toggle's answer (`GET /api/descalificarTeam/{id}`) is the new row: arrived = first row of the
 *       team with `version` >= that version;
 *     - an attempts answer (`POST /api/agent/attempts`) carries the new `number_attempts` but not the
 *       version; the count only grows and every counted request moves it, so arrived = first row of
 *       the team with `number_attempts` >= that count.
 *   Latency = that arrival - the request's send time (taken just before sending). This holds whether
 *   rows come one by one or gathered, in order or not, through one process or several.
 * - A push may reach the screens before the HTTP answer reaches the load tester (the server emits
 *   before it answers), which is why matching waits for the end instead of happening on arrival.
 *
 * Every change is expected on every screen that was connected when traffic started (each screen
 * joins all three level rooms). A change no row ever covered on a screen by the end (+ grace) is one
 * lost event on that screen.
 */
import type { CollectedScreens } from './screens.js';
import { Histogram, PerSecond } from './metrics.js';

/** One acknowledged change, recorded by agents.ts / toggles.ts. */
export interface Change {
  kind: 'attempts' | 'toggle';
  team: number;
  /** attempts: `number_attempts` after the request. */
  n: number;
  /** toggle: the new `version`; attempts: -1 (unknown). */
  version: number;
  /** When the request was sent (ms since t0, taken just before sending). */
  sent: number;
}

/** Outcome of the matching. */
export interface MatchResult {
  /** Push latency (request sent to arrival on a screen), ms, every change x every expected screen. */
  all: Histogram;
  attempts: Histogram;
  toggles: Histogram;
  /** Same, per second of the run by send time. */
  perSecond: PerSecond;
  /** Expected (change, screen) pairs that never arrived. */
  lost: number;
  /** Changes that reached no screen at all. */
  changesNeverSeen: number;
  /** Expected deliveries: changes x expected screens. */
  expected: number;
  /** Distinct rows (team, version) the screens received. */
  distinctRows: number;
}

/** One row as received by the screens of every worker. */
interface Row {
  version: number;
  n: number;
  /** Per worker: arrival per screen (NaN: never), or undefined when none of its screens got it. */
  parts: Array<Float32Array | undefined>;
}

/** min of two arrivals, NaN meaning "never". */
const earliest = (a: number, b: number) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : a < b ? a : b);

/** Matches `changes` against what the screens received; `runStart` (ms since t0) starts second 0. */
export function matchPushes(changes: Change[], screens: CollectedScreens, runStart: number): MatchResult {
  const workers = screens.parts.length;
  const byTeam = new Map<number, Map<number, Row>>();
  screens.parts.forEach(({ records }, w) => {
    for (let r = 0; r < records.team.length; r++) {
      const team = records.team[r]!;
      let rows = byTeam.get(team);
      if (!rows) byTeam.set(team, (rows = new Map()));
      let row = rows.get(records.version[r]!);
      if (!row)
        rows.set(
          records.version[r]!,
          (row = { version: records.version[r]!, n: records.n[r]!, parts: new Array(workers) }),
        );
      row.parts[w] = records.arrivals[r];
    }
  });

  // Per team, rows by version; then, in place from the newest down, each row's arrivals become the
  // earliest arrival of any row at least as new ("suffix minimum"): one lookup per change after that.
  const sorted = new Map<number, Row[]>();
  let distinctRows = 0;
  for (const [team, rows] of byTeam) {
    const list = [...rows.values()].sort((a, b) => a.version - b.version);
    distinctRows += list.length;
    for (let w = 0; w < workers; w++) {
      for (let k = list.length - 2; k >= 0; k--) {
        const newer = list[k + 1]!.parts[w];
        if (!newer) continue;
        const own = list[k]!.parts[w];
        if (!own) {
          list[k]!.parts[w] = newer; // nothing of its own: shares the newer row's earliest arrivals
          continue;
        }
        for (let i = 0; i < own.length; i++) own[i] = earliest(own[i]!, newer[i]!);
      }
    }
    sorted.set(team, list);
  }

  /** Index of the first row with `key(row)` >= `min` (rows sorted so that key never decreases). */
  const firstAtLeast = (list: Row[], min: number, key: (row: Row) => number) => {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (key(list[mid]!) < min) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const result: MatchResult = {
    all: new Histogram(),
    attempts: new Histogram(),
    toggles: new Histogram(),
    perSecond: new PerSecond(),
    lost: 0,
    changesNeverSeen: 0,
    expected: 0,
    distinctRows,
  };
  const expectedScreens = screens.parts.reduce((a, p) => a + p.expected.reduce((s, v) => s + v, 0), 0);

  for (const c of changes) {
    result.expected += expectedScreens;
    const list = sorted.get(c.team) ?? [];
    const k =
      c.kind === 'toggle'
        ? firstAtLeast(list, c.version, (r) => r.version)
        : firstAtLeast(list, c.n, (r) => r.n);
    const row = list[k];
    if (!row) {
      result.changesNeverSeen++;
      result.lost += expectedScreens;
      continue;
    }
    const second = (c.sent - runStart) / 1000;
    const kind = c.kind === 'toggle' ? result.toggles : result.attempts;
    screens.parts.forEach(({ expected }, w) => {
      const arrivals = row.parts[w];
      for (let i = 0; i < expected.length; i++) {
        if (expected[i] !== 1) continue;
        const at = arrivals ? arrivals[i]! : Number.NaN;
        if (Number.isNaN(at)) {
          result.lost++;
          continue;
        }
        const ms = at - c.sent;
        result.all.add(ms);
        kind.add(ms);
        result.perSecond.add(second, ms);
      }
    });
  }
  return result;
}
