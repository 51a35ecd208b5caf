import { describe, expect, it } from 'vitest';
import type { AttemptLogRow } from '@concurso/shared';
import {
  ATTEMPT_BURST_GAP_MS,
  attemptBurstDue,
  attemptBursts,
  attemptBurstText,
  type LastAttemptAt,
} from './attempt-bursts';

const T0 = Date.parse('2026-11-27T10:00:00.000Z');

function row(id: number, process: string, offsetMs: number): AttemptLogRow {
  const at = new Date(T0 + offsetMs).toISOString();
  return { id, process, executable: null, via: null, killed: true, occurred_at: at, received_at: at };
}

describe('attempt bursts (a restart loop read as one run)', () => {
  it('says «12 intentos en 30 s»: whole seconds rounded up, at least 1 s, minutes from 2 min', () => {
    expect(attemptBurstText(12, 30_000)).toBe('12 intentos en 30 s');
    expect(attemptBurstText(3, 400)).toBe('3 intentos en 1 s');
    expect(attemptBurstText(40, 29_100)).toBe('40 intentos en 30 s');
    expect(attemptBurstText(90, 180_000)).toBe('90 intentos en 3 min');
  });

  it('a restart loop of 12 starts 2.7 s apart is one burst, shown on its newest attempt; other programs and lone attempts have none', () => {
    const loop = Array.from({ length: 12 }, (_, i) => row(100 + i, 'chatgpt-red4', Math.round(i * 2_700)));
    const rows = [
      ...loop,
      row(1, 'discord', 5_000),
      row(2, 'discord', 8_000),
      // The same program again after a long pause: a run of its own, too short to be a burst.
      row(200, 'chatgpt-red4', 11 * 2_700 + ATTEMPT_BURST_GAP_MS + 1),
    ].reverse(); // newest first, as the server answers
    expect(attemptBursts(rows)).toEqual(new Map([[111, '12 intentos en 30 s']]));
  });

  it('two runs split by a gap over 10 s are two bursts', () => {
    const first = [0, 1_000, 2_000].map((t, i) => row(i + 1, 'x', t));
    const second = [20_000, 21_000, 22_500, 23_000].map((t, i) => row(i + 10, 'x', t));
    expect(attemptBursts([...first, ...second])).toEqual(
      new Map([
        [3, '3 intentos en 2 s'],
        [13, '4 intentos en 3 s'],
      ]),
    );
  });

  it('the tone rings once for a burst of a team: its first attempt, not the next ones within 10 s; again after a quiet 10 s; each team on its own', () => {
    const last: LastAttemptAt = new Map();
    const rings = [0, 1_000, 2_000, 5_000, 14_000].map((t) => attemptBurstDue(last, [7], t));
    expect(rings).toEqual([true, false, false, false, false]);
    expect(attemptBurstDue(last, [7], 14_000 + ATTEMPT_BURST_GAP_MS + 1)).toBe(true);
    expect(attemptBurstDue(last, [8], 24_100)).toBe(true);
    expect(attemptBurstDue(last, [7, 8], 24_200)).toBe(false);
    expect(attemptBurstDue(last, [], 50_000)).toBe(false);
  });
});
