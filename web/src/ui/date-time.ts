/**
 * Dates as the screens show them (issue 13, "History on screen"): Spanish form `dd/mm/aaaa hh:mm:ss`,
 * 24-hour clock, in the browser's time zone. The wire carries ISO 8601; only the screen formats.
 */

/** Two digits, zero-padded. */
const two = (value: number) => String(value).padStart(2, '0');

/**
 * `iso` (an ISO 8601 instant, e.g. `2026-11-22T20:07:49.000Z`) as `dd/mm/aaaa hh:mm:ss` in local time;
 * an empty text for null, and the input itself when it is not a date (never 'Invalid Date').
 */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const day = `${two(date.getDate())}/${two(date.getMonth() + 1)}/${date.getFullYear()}`;
  return `${day} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}
