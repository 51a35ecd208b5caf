import { describe, expect, it } from 'vitest';
import { attemptsChartPoints, pointLabel } from './stats-chart-data';

/** An ISO time of the browser's own zone, so labels do not depend on where the test runs. */
const local = (day: number, hours: number, minutes: number) =>
  new Date(2026, 10, day, hours, minutes).toISOString();

describe('stats chart data', () => {
  it('labels minute points hh:mm, with the date when the series spans days, and day points dd/mm', () => {
    expect(pointLabel(local(21, 9, 5), 1, false)).toBe('09:05');
    expect(pointLabel(local(21, 9, 5), 15, true)).toBe('21/11 09:05');
    expect(pointLabel(local(3, 0, 0), 1_440, false)).toBe('03/11');
  });

  it('keeps every point of the series with its attempts, zeros included', () => {
    const points = attemptsChartPoints({
      bucket_minutes: 1,
      attempts_per_minute: [
        { minute: local(21, 16, 0), attempts: 2 },
        { minute: local(21, 16, 1), attempts: 0 },
        { minute: local(21, 16, 2), attempts: 5 },
      ],
    });
    expect(points).toEqual([
      { label: '16:00', attempts: 2 },
      { label: '16:01', attempts: 0 },
      { label: '16:02', attempts: 5 },
    ]);
    const twoDays = attemptsChartPoints({
      bucket_minutes: 60,
      attempts_per_minute: [
        { minute: local(21, 23, 0), attempts: 1 },
        { minute: local(22, 0, 0), attempts: 1 },
      ],
    });
    expect(twoDays.map((p) => p.label)).toEqual(['21/11 23:00', '22/11 00:00']);
  });
});
