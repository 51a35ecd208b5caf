import { describe, expect, it } from 'vitest';
import { formatDateTime } from './date-time';

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
