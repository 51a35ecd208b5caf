import { STATS_BUCKET_STEPS, STATS_MAX_POINTS, type AttemptsPoint } from '@concurso/shared';

/*
 * The attempts series of a contest's statistics: pure, so its rules are tested apart from
 * the database. The database counts the attempts per point (stats.repository.ts); this picks the
 * width of a point and fills the minutes without attempts with zeros.
 */

const MINUTE_MS = 60_000;
const DAY_MINUTES = 1_440;

/** `at` cut down to its whole minute (UTC), in milliseconds. */
export function minuteStart(at: Date): number {
  return Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS;
}

/**
 * Width in minutes of each point of a series from `first` to `last` (the first and last attempts):
 * 1 while the minutes from the first's to the last's fit in `STATS_MAX_POINTS` points, else the
 * smallest of `STATS_BUCKET_STEPS` that fits, else whole days.
 */
export function bucketMinutes(first: Date, last: Date): number {
  const minutes = (minuteStart(last) - minuteStart(first)) / MINUTE_MS + 1;
  for (const step of STATS_BUCKET_STEPS) if (Math.ceil(minutes / step) <= STATS_MAX_POINTS) return step;
  return DAY_MINUTES * Math.ceil(minutes / (DAY_MINUTES * STATS_MAX_POINTS));
}

/**
 * The zero-filled series: one point per `width` minutes from `start` (a whole minute, ms) up to the
 * point holding `last`, each with the count `counts` has for its index (0 when none).
 */
export function fillSeries(
  start: number,
  last: Date,
  width: number,
  counts: ReadonlyMap<number, number>,
): AttemptsPoint[] {
  const points = Math.floor((minuteStart(last) - start) / (width * MINUTE_MS)) + 1;
  return Array.from({ length: points }, (_, index) => ({
    minute: new Date(start + index * width * MINUTE_MS).toISOString(),
    attempts: counts.get(index) ?? 0,
  }));
}
