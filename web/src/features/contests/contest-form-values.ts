import { calendarOf } from '@concurso/shared';

/** Today's date on the user's clock as `YYYY-MM-DD` (the contest date's default, SPEC.md section 9). */
export function todayIsoDate(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  // The local date, not UTC: in the evening UTC is already tomorrow in Mexico.
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The calendar the date belongs to ('2026B'), or '' while the date is incomplete. */
export function calendarPreview(date: unknown): string {
  return typeof date === 'string' && /^\d{4}-(0[1-9]|1[0-2])-\d{2}$/.test(date) ? calendarOf(date) : '';
}
