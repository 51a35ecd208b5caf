/**
 * `push_ms_from_request`: matching the rows the FULL screens took (full-tester.ts) to the
 * requests that caused them, after the run (all times in ms since `t0`, metrics.now()).
 *
 * What is known:
 * - Every change bumps the team's `version`, so (team id, version) names one row. A full screen
 *   records when it first held each row (taken from a `board.frame` with the version rule, or from a
 *   snapshot): board-replica.ts.
 * - The server gathers the changes of a push tick and sends only the newest row of each team, so a
 *   change may never travel as its own row: a later row of the same team carries it. A change has
 *   therefore ARRIVED on a screen when that screen held a row of the team at least as new:
 *     - a toggle's answer (`GET /api/descalificarTeam/{id}`) is the new row: arrived = first row of the
 *       team with `version` >= that version;
 *     - an attempts answer (`POST /api/agent/attempts`) carries the new `number_attempts` but not the
 *       version; the count only grows and every counted request moves it, so arrived = first row of
 *       the team with `number_attempts` >= that count.
 *   Latency = that arrival - the request's send time (taken just before sending). This holds whether
 *   rows come one by one or gathered, in order or not, through one process or several.
 * - A push may reach the screens before the HTTP answer reaches the load tester (the server pushes
 *   after the commit, in parallel with the answer), which is why matching waits for the end.
 *
 * Every change is expected on every full screen that was connected when traffic started. A (change,
 * screen) pair no row covered by the end of observation is NOT left out: it enters the histogram as
 * `end - sent` (a lower bound of its latency) and is counted in `unarrived`; loss itself is judged by
 * the final-state check (board-replica.ts `finalStateMismatches`).
 */
import { Histogram, PerSecond } from './metrics.js';
import type { ArrivalRecords } from './tester-protocol.js';

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

/** What the full screens took: per tester process, its records and which screens were expected. */
export interface FullScreens {
  parts: Array<{ records: ArrivalRecords; expected: Uint8Array }>;
}

/** Outcome of the matching. */
export interface MatchResult {
  /** Push latency (request sent to arrival on a screen), ms, every change x every expected screen. */
  all: Histogram;
  attempts: Histogram;
  toggles: Histogram;
  /** Same, per second of the run by send time. */
  perSecond: PerSecond;
  /** Expected (change, screen) pairs not arrived by `end` (in the histograms as `end - sent`). */
  unarrived: number;
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

/**
 * Matches `changes` against what the screens took; `runStart` (ms since t0) starts second 0 and `end`
 * (ms since t0) is when observation stopped.
 */
export function matchPushes(
  changes: Change[],
  screens: FullScreens,
  runStart: number,
  end: number,
): MatchResult {
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
    unarrived: 0,
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
    if (!row) result.changesNeverSeen++;
    const second = (c.sent - runStart) / 1000;
    const kind = c.kind === 'toggle' ? result.toggles : result.attempts;
    screens.parts.forEach(({ expected }, w) => {
      const arrivals = row?.parts[w];
      for (let i = 0; i < expected.length; i++) {
        if (expected[i] !== 1) continue;
        let at = arrivals ? arrivals[i]! : Number.NaN;
        if (Number.isNaN(at)) {
          result.unarrived++;
          at = end;
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
