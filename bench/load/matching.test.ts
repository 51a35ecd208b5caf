import { describe, expect, it } from 'vitest';
import { matchPushes, type Change } from './matching.js';
import type { ArrivalRecords } from './tester-protocol.js';

/** Records of two screens: [team, version, number_attempts, arrival on screen 0, on screen 1]. */
function records(rows: Array<[number, number, number, number, number]>): ArrivalRecords {
  return {
    team: Int32Array.from(rows, (r) => r[0]),
    version: Int32Array.from(rows, (r) => r[1]),
    n: Int32Array.from(rows, (r) => r[2]),
    arrivals: rows.map((r) => Float32Array.from([r[3], r[4]])),
  };
}

describe('matchPushes', () => {
  it('times a change to the first row at least as new, per screen', () => {
    const screens = {
      parts: [
        {
          // Team 1: v2 (3 attempts) on both screens; v3 (5 attempts) only on screen 1, earlier
          // there than v2 on screen 0 would suggest: a newer row covers an older change.
          records: records([
            [1, 2, 3, 100, 120],
            [1, 3, 5, 150, 110],
          ]),
          expected: Uint8Array.from([1, 1]),
        },
      ],
    };
    const changes: Change[] = [
      { kind: 'attempts', team: 1, n: 3, version: -1, sent: 90 },
      { kind: 'toggle', team: 1, n: 5, version: 3, sent: 95 },
    ];
    const match = matchPushes(changes, screens, 0, 1_000);
    // attempts n>=3: screen 0 at 100 (v2), screen 1 at 110 (v3 came before v2 there): 10 + 20 ms.
    // toggle v>=3: screen 0 at 150, screen 1 at 110: 55 + 15 ms.
    expect(match.attempts.count).toBe(2);
    expect(match.attempts.sum).toBeCloseTo(30, 3);
    expect(match.attempts.max).toBeCloseTo(20, 3);
    expect(match.toggles.sum).toBeCloseTo(70, 3);
    expect(match.toggles.max).toBeCloseTo(55, 3);
    expect(match.unarrived).toBe(0);
    expect(match.expected).toBe(4);
  });

  it('keeps a pair that never arrived in the histogram as end - sent, and counts it', () => {
    const screens = {
      parts: [{ records: records([[1, 2, 3, 100, Number.NaN]]), expected: Uint8Array.from([1, 1]) }],
    };
    const changes: Change[] = [
      { kind: 'attempts', team: 1, n: 3, version: -1, sent: 90 },
      { kind: 'attempts', team: 2, n: 1, version: -1, sent: 200 },
    ];
    const match = matchPushes(changes, screens, 0, 1_000);
    expect(match.unarrived).toBe(3);
    expect(match.changesNeverSeen).toBe(1);
    expect(match.all.count).toBe(4);
    expect(match.all.max).toBeCloseTo(910, 3);
  });

  it('ignores screens not connected when traffic started', () => {
    const screens = {
      parts: [{ records: records([[1, 2, 3, 100, Number.NaN]]), expected: Uint8Array.from([1, 0]) }],
    };
    const match = matchPushes([{ kind: 'attempts', team: 1, n: 3, version: -1, sent: 90 }], screens, 0, 500);
    expect(match.unarrived).toBe(0);
    expect(match.all.count).toBe(1);
  });
});
