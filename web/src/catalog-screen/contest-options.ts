/**
 * The contests as the choices of a select (the team, exercise and contest forms' "Concurso"
 * and "Copiar procesos bloqueados de"), and the choice a new row starts with: the active contest
 * (docs/design.md section 3). Pure: `use-contest-options.ts` feeds it the contests list.
 */
import type { ContestRow } from '@concurso/shared';
import { formatDate } from '../ui/date-time';
import type { SelectOption } from '../ui/form/form-select-field';

/** The fields a contest choice reads of a `getContests` row. */
export type ContestChoice = Pick<ContestRow, 'id' | 'calendar' | 'date' | 'active'>;

/** Newest first: the latest date, then the highest id (two contests of one day: the last registered). */
function newestFirst(a: ContestChoice, b: ContestChoice): number {
  return b.date.slice(0, 10).localeCompare(a.date.slice(0, 10)) || b.id - a.id;
}

/** A contest as a person reads it where its calendar alone may be ambiguous: '2026B (21/11/2026)'. */
export function contestWithDate(row: Pick<ContestChoice, 'calendar' | 'date'>): string {
  return `${row.calendar} (${formatDate(row.date)})`;
}

/**
 * The contests as select options, newest first, values as strings (what a native select holds). The
 * label is the calendar ('2027A'); when several contests share a calendar each also shows its date
 * ('2026B (21/11/2026)', dd/mm/aaaa as everywhere a person reads), so the choice is never
 * ambiguous.
 */
export function contestOptions(rows: readonly ContestChoice[]): SelectOption[] {
  const perCalendar = new Map<string, number>();
  for (const row of rows) perCalendar.set(row.calendar, (perCalendar.get(row.calendar) ?? 0) + 1);
  return [...rows].sort(newestFirst).map((row) => ({
    value: String(row.id),
    label: (perCalendar.get(row.calendar) ?? 0) > 1 ? contestWithDate(row) : row.calendar,
  }));
}

/** The active contest's id as a select value, or '' when no contest is active. */
export function activeContestValue(rows: readonly ContestChoice[]): string {
  const active = rows.find((row) => row.active);
  return active ? String(active.id) : '';
}
