/**
 * Dates as the screens show them (one form everywhere a person reads): Spanish form `dd/mm/aaaa` and
 * `dd/mm/aaaa hh:mm:ss`, 24-hour clock, in the browser's time zone. The wire and the forms' date inputs carry
 * ISO 8601; only the screen formats. The one place the tables, dialogs, board, report and charts take their
 * date texts from.
 */

/** Two digits, zero-padded (a day, a month, an hour…). */
export const two = (value: number) => String(value).padStart(2, '0');

/** Options of {@link formatDateTime}. */
export interface DateTimeOptions {
  /** Leave the seconds out: `dd/mm/aaaa hh:mm` (the contest report's times). */
  seconds?: boolean;
}

/**
 * `iso` (an ISO 8601 instant, e.g. `2026-11-22T20:07:49.000Z`) as `dd/mm/aaaa hh:mm:ss` in local time
 * (`dd/mm/aaaa hh:mm` with `{ seconds: false }`); an empty text for null, and the input itself when it
 * is not a date (never 'Invalid Date').
 */
export function formatDateTime(iso: string | null | undefined, options: DateTimeOptions = {}): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const day = `${two(date.getDate())}/${two(date.getMonth() + 1)}/${date.getFullYear()}`;
  const time = `${two(date.getHours())}:${two(date.getMinutes())}`;
  return options.seconds === false ? `${day} ${time}` : `${day} ${time}:${two(date.getSeconds())}`;
}

/**
 * A calendar date, `YYYY-MM-DD` (a contest's date) or the start of an ISO timestamp, as `dd/mm/aaaa`,
 * read as written (no time zone shift: the contest's day is the same everywhere); any other text is
 * answered as it is.
 */
export function formatDate(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : date;
}
