import type { FieldErrors, Resolver } from 'react-hook-form';
import {
  allowedSitesLines,
  calendarOf,
  contestInputSchema,
  type ContestInput,
  type ContestRow,
} from '@concurso/shared';
import type { QuestionView } from '../../stores/feedback-store';
import { issuesToFieldErrors } from '../../ui/form/schema-resolver';
import { allowedSitesErrorText, allowedSitesText, splitSiteIssues } from './allowed-sites-form';

/** Today's date on the user's clock as `YYYY-MM-DD` (the contest date's default, docs/spec.md section 9). */
export function todayIsoDate(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  // The local date, not UTC: in the evening UTC is already tomorrow in Mexico.
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The calendar the date belongs to ('2026B'), or '' while the date is incomplete. */
export function calendarPreview(date: unknown): string {
  return typeof date === 'string' && /^\d{4}-(0[1-9]|1[0-2])-\d{2}$/.test(date) ? calendarOf(date) : '';
}

/**
 * The contest modal's fields as the inputs hold them: the date, `max_attempts` ('' for none)
 * and, on create only, the contest whose blocked set is copied ('' for none).
 */
export interface ContestFormValues {
  date: string;
  max_attempts: string;
  copy_from_contests_id: string;
  /** The agents report what runs on the machines (on by default). */
  observe_processes: boolean;
  /** «Capturar la pantalla en cada intento» (on by default). */
  capture_screens: boolean;
  /** «Sitios permitidos», the text area: one site per line ('' for no network policy). */
  allowed_sites: string;
}

/**
 * A new contest's fields: today, no automatic block, nothing copied, observed, screens captured, no
 * allowed sites.
 * Computed at each opening.
 */
export function emptyContestValues(now: Date = new Date()): ContestFormValues {
  return {
    date: todayIsoDate(now),
    max_attempts: '',
    copy_from_contests_id: '',
    observe_processes: true,
    capture_screens: true,
    allowed_sites: '',
  };
}

/**
 * An edited contest's fields: its date, its stored `max_attempts` ('' when it has none), setting and
 * allowed sites (one per line).
 */
export function contestValuesOf(
  row: Pick<ContestRow, 'date' | 'max_attempts' | 'observe_processes' | 'capture_screens' | 'allowed_sites'>,
): ContestFormValues {
  return {
    date: row.date.slice(0, 10),
    max_attempts: row.max_attempts === null ? '' : String(row.max_attempts),
    copy_from_contests_id: '',
    observe_processes: row.observe_processes,
    capture_screens: row.capture_screens !== false,
    allowed_sites: allowedSitesText(row.allowed_sites),
  };
}

/**
 * The modal's resolver: the shared `contestInputSchema` (the server's rule) on the fields, the text
 * area read as its non-empty lines (`allowedSitesLines`). A refused site is said with its
 * line under the text area ('Línea 2: …'), every refused line at once.
 */
export const contestFormResolver: Resolver<ContestFormValues, unknown, ContestInput> = (values) => {
  const parsed = contestInputSchema.safeParse({
    ...values,
    allowed_sites: allowedSitesLines(values.allowed_sites),
  });
  if (parsed.success) return { values: parsed.data, errors: {} };
  const { sites, others } = splitSiteIssues(parsed.error.issues);
  const errors: FieldErrors<ContestFormValues> = issuesToFieldErrors<ContestFormValues>(others);
  const sitesError = allowedSitesErrorText(values.allowed_sites, sites);
  if (sitesError !== null) errors.allowed_sites = { type: 'validate', message: sitesError };
  return { values: {}, errors };
};

/**
 * The body of `createContest` (`creating`) or `updateContest` (without its id) for the valid values:
 * the date with its calendar (the client sends it, docs/design.md section 3), `max_attempts` (null clears
 * it), `observe_processes` and `capture_screens` (on unless unticked), `allowed_sites` ([] is no network
 * policy, and empties an edited contest's) and, on create only and when chosen, `copy_from_contests_id`.
 * On an edit, `loadedSites` (the contest's sites when the modal opened) leaves `allowed_sites` out of
 * the body when the field still holds them.
 */
export function contestBody(
  values: ContestInput,
  creating: boolean,
  loadedSites?: readonly string[],
): ContestInput {
  const body: ContestInput = {
    date: values.date,
    calendar: calendarOf(values.date),
    max_attempts: values.max_attempts ?? null,
    observe_processes: values.observe_processes ?? true,
    capture_screens: values.capture_screens ?? true,
  };
  const sites = values.allowed_sites ?? [];
  // An edit leaves the sites alone when the field still holds what the modal opened with: the dialog
  // «Sitios permitidos» may have changed them meanwhile, and this save must not undo that (absent =
  // unchanged on the server).
  if (creating || !loadedSites || !sameSites(sites, loadedSites)) body.allowed_sites = sites;
  if (creating && values.copy_from_contests_id !== undefined)
    body.copy_from_contests_id = values.copy_from_contests_id;
  return body;
}

const sameSites = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((site, i) => site === b[i]);

/**
 * The question before 'Activar': it says what changes, "Los tableros y los agentes pasarán
 * al concurso 2027A", and which contest they leave when one is active.
 */
export function activationQuestion(
  contest: Pick<ContestRow, 'calendar'>,
  current: Pick<ContestRow, 'calendar'> | null,
): QuestionView {
  const leaving = current ? ` Dejarán de mostrar el concurso ${current.calendar}.` : '';
  return {
    title: `¿Activar el concurso ${contest.calendar}?`,
    message: `Los tableros y los agentes pasarán al concurso ${contest.calendar}.${leaving}`,
    confirmLabel: 'Sí, activar',
    cancelLabel: 'Cancelar',
  };
}
