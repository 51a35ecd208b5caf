import type { ContestRow } from '../schemas/catalogs.js';

/**
 * A contest as `getContests` lists it, for tests: 2026B of 2026-08-15, active, no automatic block,
 * processes observed, screens captured, no network policy, with any field of `overrides`. Tests only.
 */
export function contestRow(overrides: Partial<ContestRow> = {}): ContestRow {
  return {
    id: 1,
    calendar: '2026B',
    date: '2026-08-15',
    active: true,
    max_attempts: null,
    observe_processes: true,
    capture_screens: true,
    allowed_sites: [],
    network_version: 0,
    ...overrides,
  };
}
