import { describe, expect, it } from 'vitest';
import type { ResolverOptions } from 'react-hook-form';
import { NETWORK_MESSAGES, contestInputSchema } from '@concurso/shared';
import {
  activationQuestion,
  calendarPreview,
  contestBody,
  contestFormResolver,
  contestValuesOf,
  emptyContestValues,
  todayIsoDate,
  type ContestFormValues,
} from './contest-form-values';

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

  it('starts a new contest today with no automatic block, nothing copied, observed and no allowed sites', () => {
    expect(emptyContestValues(new Date(2027, 1, 3))).toEqual({
      date: '2027-02-03',
      max_attempts: '',
      copy_from_contests_id: '',
      observe_processes: true,
      capture_screens: true,
      allowed_sites: '',
    });
  });

  it('shows an edited contest with its stored max_attempts, or empty when it has none', () => {
    expect(
      contestValuesOf({ date: '2026-11-21', max_attempts: 5, observe_processes: false, allowed_sites: [] }),
    ).toEqual({
      date: '2026-11-21',
      max_attempts: '5',
      copy_from_contests_id: '',
      observe_processes: false,
      capture_screens: true,
      allowed_sites: '',
    });
    expect(
      contestValuesOf({
        date: '2026-11-21T00:00:00.000Z',
        max_attempts: null,
        observe_processes: true,
        allowed_sites: [],
      }).max_attempts,
    ).toBe('');
  });

  it('shows and sends «Capturar la pantalla en cada intento»: on unless the contest has it off', () => {
    const row = { date: '2026-11-21', max_attempts: null, observe_processes: true, allowed_sites: [] };
    expect(contestValuesOf({ ...row, capture_screens: false }).capture_screens).toBe(false);
    expect(contestValuesOf(row).capture_screens).toBe(true);
    const body = contestBody(contestInputSchema.parse({ date: '2026-08-01', capture_screens: false }), true);
    expect(body.capture_screens).toBe(false);
  });

  it("shows an edited contest's allowed sites one per line", () => {
    expect(
      contestValuesOf({
        date: '2026-11-21',
        max_attempts: null,
        observe_processes: true,
        allowed_sites: ['docs.python.org', '10.0.0.0/8'],
      }).allowed_sites,
    ).toBe('docs.python.org\n10.0.0.0/8');
  });
});

describe('contest form resolver («Sitios permitidos»)', () => {
  const options = {} as ResolverOptions<ContestFormValues>;
  const resolve = async (values: Partial<ContestFormValues>) =>
    contestFormResolver({ ...emptyContestValues(new Date(2027, 1, 3)), ...values }, undefined, options);

  it('sends the non-empty lines, trimmed, in their stored form', async () => {
    const result = await resolve({
      allowed_sites: '  Docs.Python.org \n\n10.0.0.0/8\r\njuez.ejemplo.edu:443\n',
    });
    expect(result.errors).toEqual({});
    expect(result.values).toMatchObject({
      date: '2027-02-03',
      allowed_sites: ['docs.python.org', '10.0.0.0/8', 'juez.ejemplo.edu:443'],
    });
  });

  it('sends no sites for an empty text area (no network policy)', async () => {
    const result = await resolve({ allowed_sites: ' \n ' });
    expect(result.values).toMatchObject({ allowed_sites: [] });
  });

  it("says every refused site with its line in the text area, besides the other fields' errors", async () => {
    const result = await resolve({
      max_attempts: '0',
      allowed_sites: 'docs.python.org\nmal_sitio\n\nhttps://ejemplo.com\ndocs.python.org',
    });
    expect(result.values).toEqual({});
    expect(result.errors.allowed_sites?.message).toBe(
      [
        `Línea 2: ${NETWORK_MESSAGES.badHost}`,
        `Línea 4: ${NETWORK_MESSAGES.noUrl}`,
        `Línea 5: ${NETWORK_MESSAGES.repeated}`,
      ].join('\n'),
    );
    expect(result.errors).toHaveProperty('max_attempts');
  });
});

describe('contest body (max_attempts and the copied blocked set)', () => {
  const parse = (values: Record<string, string | boolean>) => contestInputSchema.parse(values);

  it('sends the calendar, max_attempts and the contest to copy on create', () => {
    expect(
      contestBody(parse({ date: '2027-02-01', max_attempts: '3', copy_from_contests_id: '4' }), true),
    ).toEqual({
      date: '2027-02-01',
      calendar: '2027A',
      max_attempts: 3,
      observe_processes: true,
      capture_screens: true,
      allowed_sites: [],
      copy_from_contests_id: 4,
    });
  });

  it('sends null for an empty max_attempts, no copy when none was chosen, and the observe setting', () => {
    expect(
      contestBody(
        parse({ date: '2026-08-01', max_attempts: '', copy_from_contests_id: '', observe_processes: false }),
        true,
      ),
    ).toEqual({
      date: '2026-08-01',
      calendar: '2026B',
      max_attempts: null,
      observe_processes: false,
      capture_screens: true,
      allowed_sites: [],
    });
  });

  it('never sends a copy on update (the blocked set has its own calls), and clears max_attempts', () => {
    expect(
      contestBody(parse({ date: '2026-08-01', max_attempts: '', copy_from_contests_id: '4' }), false),
    ).toEqual({
      date: '2026-08-01',
      calendar: '2026B',
      max_attempts: null,
      observe_processes: true,
      capture_screens: true,
      allowed_sites: [],
    });
  });

  it('sends the allowed sites on create and on update', () => {
    const values = contestInputSchema.parse({ date: '2026-08-01', allowed_sites: ['docs.python.org'] });
    expect(contestBody(values, true).allowed_sites).toEqual(['docs.python.org']);
    expect(contestBody(values, false).allowed_sites).toEqual(['docs.python.org']);
  });

  it('leaves the sites out of an edit whose field still holds what the modal opened with', () => {
    const values = contestInputSchema.parse({ date: '2026-08-01', allowed_sites: ['docs.python.org'] });
    // Untouched: absent, so a change saved meanwhile by «Sitios permitidos» stands.
    expect(contestBody(values, false, ['docs.python.org'])).not.toHaveProperty('allowed_sites');
    // Changed, emptied or reordered in the modal: sent.
    expect(contestBody(values, false, ['cppreference.com']).allowed_sites).toEqual(['docs.python.org']);
    const emptied = contestInputSchema.parse({ date: '2026-08-01', allowed_sites: [] });
    expect(contestBody(emptied, false, ['docs.python.org']).allowed_sites).toEqual([]);
    // A new contest always says its list.
    expect(contestBody(values, true, ['docs.python.org']).allowed_sites).toEqual(['docs.python.org']);
  });

  it('refuses a max_attempts below 1 (the shared rule the form validates with)', () => {
    expect(contestInputSchema.safeParse({ date: '2026-08-01', max_attempts: '0' }).success).toBe(false);
  });
});

describe('activation question', () => {
  it('says the boards and the agents move to the contest, and which one they leave', () => {
    expect(activationQuestion({ calendar: '2027A' }, { calendar: '2026B' })).toEqual({
      title: '¿Activar el concurso 2027A?',
      message: 'Los tableros y los agentes pasarán al concurso 2027A. Dejarán de mostrar el concurso 2026B.',
      confirmLabel: 'Sí, activar',
      cancelLabel: 'Cancelar',
    });
  });

  it('only says where they go when no contest is active', () => {
    expect(activationQuestion({ calendar: '2027A' }, null).message).toBe(
      'Los tableros y los agentes pasarán al concurso 2027A.',
    );
  });
});
