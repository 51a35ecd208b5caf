import { skipToken, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { ListQuery } from '../api/queries/list-query';

const NOTHING_LISTED = ['nada'];

/**
 * A list shown in a dialog (`ListDialog`, the board's 'Historial'): fetched only while `open` (cached
 * rows of the same list show meanwhile), nothing when `query` is null; rows of another key are never
 * shown, not even for a moment. `select` turns the rows into what the dialog draws (kept per render:
 * pass a stable function).
 */
export function useOpenListQuery<T, S = T>(
  query: ListQuery<T> | null,
  open: boolean,
  select?: (rows: T[]) => S[],
): UseQueryResult<S[]> {
  return useQuery({
    queryKey: query?.queryKey ?? NOTHING_LISTED,
    queryFn: open && query ? query.queryFn : skipToken,
    meta: query?.meta,
    select,
  });
}
