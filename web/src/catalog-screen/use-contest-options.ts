import { useMemo } from 'react';
import { useCatalogRows } from '../api/queries/catalog-queries';
import type { SelectOption } from '../ui/form/form-select-field';
import { activeContestValue, contestOptions } from './contest-options';

/** The contests as a select's choices, and what a new row's `contests_id` starts as. */
export interface ContestSelect {
  /** Every contest, newest first (`contestOptions`). */
  options: SelectOption[];
  /** The active contest's id as a select value (`activeContestValue`); '' while loading or when none is. */
  active: string;
  /**
   * `{contests_id}` of the active contest for `CatalogScreen`'s `createValues` (the team and
   * exercise forms default to it); `{}` while the list loads or when no contest is active. The same
   * object until the active contest changes.
   */
  createValues: { contests_id?: string };
}

/**
 * The contests list (the `getContests` query the contests screen shows, kept current by
 * `catalog.changed` 'contests', which an activation also sends) as the choices of a contest select.
 */
export function useContestOptions(): ContestSelect {
  const { rows } = useCatalogRows('contests');
  const options = useMemo(() => contestOptions(rows), [rows]);
  const active = activeContestValue(rows);
  // Without an active contest the field keeps its own empty value (the server defaults to the active one).
  const createValues = useMemo(() => (active ? { contests_id: active } : {}), [active]);
  return { options, active, createValues };
}
