import type { ContestStats } from '@concurso/shared';
import { two } from '../../../ui/date-time';

/*
 * The /home "Estadísticas" panel's pure part: the chart points from a contest's statistics.
 * Free of React and recharts, so it is unit-tested as it is.
 */

/** One point of the attempts line: its axis label (local time) and its attempts. */
export interface AttemptsChartPoint {
  label: string;
  attempts: number;
}

/**
 * The axis label of a point starting at `iso`, in the browser's time zone: 'hh:mm' for points under a
 * day wide, 'dd/mm' for day-wide ones; with `withDate`, 'dd/mm hh:mm' (a contest over several days).
 */
export function pointLabel(iso: string, bucketMinutes: number, withDate: boolean): string {
  const at = new Date(iso);
  const day = `${two(at.getDate())}/${two(at.getMonth() + 1)}`;
  if (bucketMinutes >= 1_440) return day;
  const time = `${two(at.getHours())}:${two(at.getMinutes())}`;
  return withDate ? `${day} ${time}` : time;
}

/** The attempts line's points: every point of the series, labelled (with the date when it spans days). */
export function attemptsChartPoints(
  stats: Pick<ContestStats, 'attempts_per_minute' | 'bucket_minutes'>,
): AttemptsChartPoint[] {
  const series = stats.attempts_per_minute;
  const days = new Set(series.map((p) => new Date(p.minute).toDateString()));
  return series.map((p) => ({
    label: pointLabel(p.minute, stats.bucket_minutes, days.size > 1),
    attempts: p.attempts,
  }));
}
