import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './date-time';

describe('formatDateTime', () => {
  it('shows an ISO instant as dd/mm/aaaa hh:mm:ss in local time, zero-padded, 24-hour clock', () => {
    expect(formatDateTime(new Date(2026, 10, 2, 9, 5, 3).toISOString())).toBe('02/11/2026 09:05:03');
    expect(formatDateTime(new Date(2026, 0, 31, 23, 59, 59).toISOString())).toBe('31/01/2026 23:59:59');
  });

  it('shows nothing for no date and the text itself for a text that is no date', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime(undefined)).toBe('');
    expect(formatDateTime('')).toBe('');
    expect(formatDateTime('ayer')).toBe('ayer');
  });
});

describe('formatDateTime without seconds', () => {
  it("shows 'dd/mm/aaaa hh:mm' (the contest report's times)", () => {
    expect(formatDateTime(new Date(2026, 0, 3, 9, 7, 45).toISOString(), { seconds: false })).toBe(
      '03/01/2026 09:07',
    );
  });
});

describe('formatDate', () => {
  it("shows a contest's YYYY-MM-DD, or an ISO timestamp's date as written, as dd/mm/aaaa", () => {
    expect(formatDate('2026-11-21')).toBe('21/11/2026');
    expect(formatDate('2026-11-21T00:00:00.000Z')).toBe('21/11/2026');
  });

  it('answers any other text as it is', () => {
    expect(formatDate('mañana')).toBe('mañana');
  });
});
