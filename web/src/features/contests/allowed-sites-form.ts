/**
 * The rules of «Sitios permitidos» (docs/design.md section 6a), shared by the contest modal and
 * the contests table's own dialog: the text area holds one site per line, the shared
 * `allowedSitesSchema` checks the non-empty lines, and each refusal is said with its line. Pure:
 * tested in Node.
 */
import type { Resolver, ResolverResult } from 'react-hook-form';
import {
  allowedSitesLines,
  allowedSitesSchema,
  saveFailedMessage,
  type AllowedSitesInput,
  type ContestRow,
} from '@concurso/shared';
import { isApiRequestError } from '../../api/api-error';
import { describeSaveFailure } from '../../catalog-screen/catalog-failures';
import { INVALID_FORM_MESSAGE, type MessageView } from '../../stores/feedback-store';
import type { SchemaIssue } from '../../ui/form/schema-resolver';

/** The text area's placeholder: a name, a network and a name with its port. */
export const ALLOWED_SITES_PLACEHOLDER = 'docs.python.org\n10.0.0.0/8\njuez.ejemplo.edu:443';

/** A contest's stored sites as the text area shows them, one per line. */
export const allowedSitesText = (sites: readonly string[]): string => sites.join('\n');

/**
 * The text area's line (1-based) of each site `allowedSitesLines` takes from it: blank lines are
 * dropped before the schema sees the list, so its entry 2 may be the text area's line 4, and the
 * message must point at what the admin sees.
 */
export function siteLineNumbers(text: string): number[] {
  return text.split(/\r?\n/).flatMap((line, index) => (line.trim() === '' ? [] : [index + 1]));
}

/**
 * One message of every refused site, a line each, in the text area's order: 'Línea 2: No es un nombre
 * de sitio válido (…)'. `path` is relative to the list: its first step is the entry's index; a refusal of
 * the whole list (more than `NETWORK_MAX_DESTINATIONS`) has none and goes first, without a line. Only
 * the first message of a line is kept. Null when there is none.
 */
export function allowedSitesErrorText(text: string, issues: readonly SchemaIssue[]): string | null {
  const lines = siteLineNumbers(text);
  const whole: string[] = [];
  const byLine = new Map<number, string>();
  for (const issue of issues) {
    const [index] = issue.path;
    const line = typeof index === 'number' ? lines[index] : undefined;
    if (line === undefined) {
      if (!whole.includes(issue.message)) whole.push(issue.message);
    } else if (!byLine.has(line)) byLine.set(line, `Línea ${line}: ${issue.message}`);
  }
  const perLine = [...byLine].sort(([a], [b]) => a - b).map(([, message]) => message);
  const all = [...whole, ...perLine];
  return all.length > 0 ? all.join('\n') : null;
}

/**
 * A 422 of `allowed_sites` as the text area says it: the server names a refused entry
 * `allowed_sites.<i>` (and the whole list `allowed_sites`); `text` is the one that was sent.
 */
export function allowedSitesServerErrorText(
  text: string,
  fieldErrors: Readonly<Record<string, readonly string[]>>,
): string | null {
  const issues: SchemaIssue[] = [];
  for (const [field, messages] of Object.entries(fieldErrors)) {
    const step = /^allowed_sites(?:\.(\d+))?(?:\.|$)/.exec(field);
    const [message] = messages;
    if (!step || message === undefined) continue;
    issues.push({ path: step[1] === undefined ? [] : [Number(step[1])], message });
  }
  return allowedSitesErrorText(text, issues);
}

/**
 * The issues of a parse split in two: those of `allowed_sites` (their path from the list on) and the
 * rest, for the forms whose text area is one field while the schema sees a list.
 */
export function splitSiteIssues(issues: readonly SchemaIssue[]): {
  sites: SchemaIssue[];
  others: SchemaIssue[];
} {
  const sites: SchemaIssue[] = [];
  const others: SchemaIssue[] = [];
  for (const issue of issues) {
    if (issue.path[0] === 'allowed_sites') sites.push({ ...issue, path: issue.path.slice(1) });
    else others.push(issue);
  }
  return { sites, others };
}

/** The fields of the «Sitios permitidos» dialog: the text area. */
export interface AllowedSitesFormValues {
  allowed_sites: string;
}

/** What the dialog sends besides the contest's id: the sites in their stored form. */
export type AllowedSitesFormOutput = Pick<AllowedSitesInput, 'allowed_sites'>;

/**
 * The dialog's resolver: the text area's non-empty lines checked by the shared schema (the server's
 * rule), answered in their stored form; every refused line said under the field.
 */
export const allowedSitesResolver: Resolver<AllowedSitesFormValues, unknown, AllowedSitesFormOutput> = (
  values,
): ResolverResult<AllowedSitesFormValues, AllowedSitesFormOutput> => {
  const parsed = allowedSitesSchema.safeParse(allowedSitesLines(values.allowed_sites));
  if (!parsed.success) {
    const message = allowedSitesErrorText(values.allowed_sites, parsed.error.issues) ?? '';
    return { values: {}, errors: { allowed_sites: { type: 'validate', message } } };
  }
  return { values: { allowed_sites: parsed.data }, errors: {} };
};

/**
 * The policy a contest has now, as the dialog says it: 'Versión actual: v3', or 'Sin política de red'
 * before its first list or once the list is emptied (the machines then have no restriction).
 */
export function networkVersionText(contest: Pick<ContestRow, 'network_version' | 'allowed_sites'>): string {
  return contest.network_version === 0 || contest.allowed_sites.length === 0
    ? 'Sin política de red'
    : `Versión actual: v${contest.network_version}`;
}

/** What the dialog shows after a failed save: the refused lines under the text area, and a dialog. */
export interface AllowedSitesFailureView {
  fieldError: string | null;
  message: MessageView | null;
}

/**
 * A failed save of the dialog: a 422 on `allowed_sites.<i>` says each refused line of `text` (the
 * one sent) under the text area, with the 'Información' warning of every invalid form; anything else as
 * a catalogue save says it (the server's text of a 404, else 'Hubo un problema al actualizar los
 * sitios permitidos. Intente de nuevo.').
 */
export function describeAllowedSitesFailure(error: unknown, text: string): AllowedSitesFailureView {
  if (isApiRequestError(error) && error.status === 422 && error.fieldErrors) {
    const fieldError = allowedSitesServerErrorText(text, error.fieldErrors);
    if (fieldError !== null) return { fieldError, message: INVALID_FORM_MESSAGE };
  }
  const view = describeSaveFailure(error, saveFailedMessage('update', 'los sitios permitidos'), []);
  return { fieldError: null, message: view.message };
}
