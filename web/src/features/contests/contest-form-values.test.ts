import { describe, expect, it } from 'vitest';
import { calendarPreview, todayIsoDate } from './contest-form-values';

describe('contest form values', () => {
  it('gives today as YYYY-MM-DD on the local clock', () => {
    expect(todayIsoDate(new Date(2026, 0, 5, 23, 30))).toBe('2026-01-05');
    expect(todayIsoDate(new Date(2026, 10, 21, 0, 5))).toBe('2026-11-21');
  });

  it('derives the calendar from the date: A for January to June, B for July to December', () => {
    expect(calendarPreview('2026-06-30')).toBe('2026A');
    expect(calendarPreview('2026-07-01')).toBe('2026B');
    expect(calendarPreview('')).toBe('');
    expect(calendarPreview('2026-1')).toBe('');
    expect(calendarPreview(undefined)).toBe('');
  });
});
