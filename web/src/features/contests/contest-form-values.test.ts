import { describe, expect, it } from 'vitest';
import { contestInputSchema } from '@concurso/shared';
import {
  activationQuestion,
  calendarPreview,
  contestBody,
  contestValuesOf,
  emptyContestValues,
  todayIsoDate,
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

  it('starts a new contest today with no automatic block, nothing copied, and observed', () => {
    expect(emptyContestValues(new Date(2027, 1, 3))).toEqual({
      date: '2027-02-03',
      max_attempts: '',
      copy_from_contests_id: '',
      observe_processes: true,
    });
  });

  it('shows an edited contest with its stored max_attempts, or empty when it has none', () => {
    expect(contestValuesOf({ date: '2026-11-21', max_attempts: 5, observe_processes: false })).toEqual({
      date: '2026-11-21',
      max_attempts: '5',
      copy_from_contests_id: '',
      observe_processes: false,
    });
    expect(
      contestValuesOf({ date: '2026-11-21T00:00:00.000Z', max_attempts: null, observe_processes: true })
        .max_attempts,
    ).toBe('');
  });
});

describe('contest body (issue 13: max_attempts and the copied blocked set)', () => {
  const parse = (values: Record<string, string | boolean>) => contestInputSchema.parse(values);

  it('sends the calendar, max_attempts and the contest to copy on create', () => {
    expect(
      contestBody(parse({ date: '2027-02-01', max_attempts: '3', copy_from_contests_id: '4' }), true),
    ).toEqual({
      date: '2027-02-01',
      calendar: '2027A',
      max_attempts: 3,
      observe_processes: true,
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
    });
  });

  it('refuses a max_attempts below 1 (the shared rule the form validates with)', () => {
    expect(contestInputSchema.safeParse({ date: '2026-08-01', max_attempts: '0' }).success).toBe(false);
  });
});

describe('activation question (issue 13)', () => {
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
