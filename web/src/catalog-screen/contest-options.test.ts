import { describe, expect, it } from 'vitest';
import { activeContestValue, contestOptions, type ContestChoice } from './contest-options';

const contest = (id: number, date: string, calendar: string, active = false): ContestChoice => ({
  id,
  date,
  calendar,
  active,
});

describe('contest options (the contest selects)', () => {
  it('lists every contest newest first by date, then by id, labelled by calendar', () => {
    const rows = [
      contest(1, '2026-03-10', '2026A'),
      contest(3, '2027-02-01', '2027A', true),
      contest(2, '2026-09-15', '2026B'),
    ];
    expect(contestOptions(rows)).toEqual([
      { value: '3', label: '2027A' },
      { value: '2', label: '2026B' },
      { value: '1', label: '2026A' },
    ]);
  });

  it('adds the date to the label of contests sharing a calendar, and orders a same-day pair by id', () => {
    const rows = [
      contest(4, '2026-11-21', '2026B'),
      contest(5, '2026-08-01', '2026B'),
      contest(6, '2026-11-21', '2026B'),
      contest(7, '2027-01-10', '2027A'),
    ];
    expect(contestOptions(rows).map((option) => option.label)).toEqual([
      '2027A',
      '2026B (21/11/2026)',
      '2026B (21/11/2026)',
      '2026B (01/08/2026)',
    ]);
    expect(contestOptions(rows).map((option) => option.value)).toEqual(['7', '6', '4', '5']);
  });

  it('starts a new row in the active contest, or leaves the field alone when none is active', () => {
    const rows = [contest(1, '2026-03-10', '2026A'), contest(2, '2026-09-15', '2026B', true)];
    expect(activeContestValue(rows)).toBe('2');
    const inactive = rows.map((row) => ({ ...row, active: false }));
    expect(activeContestValue(inactive)).toBe('');
    expect(activeContestValue([])).toBe('');
  });

  it('does not reorder the list it is given', () => {
    const rows = [contest(1, '2026-03-10', '2026A'), contest(2, '2026-09-15', '2026B')];
    contestOptions(rows);
    expect(rows.map((row) => row.id)).toEqual([1, 2]);
  });
});
