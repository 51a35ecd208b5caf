import { useCallback } from 'react';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * A write (save, delete, generate) as a TanStack mutation: answers the function that runs it (resolves
 * with the answer, rejects with the call's error for the caller's Spanish feedback) and, once it
 * settles, marks `invalidates(...args)`'s queries stale so what shows them refetches. Also after a
 * failure: a refused write may mean the list is stale (the row is gone, 404; another admin changed
 * it, 409). The invalidation is not awaited: 'Procesando…' closes with the answer, not the refetch.
 * Keep `mutationFn` and `invalidates` at module level (or stable).
 */
export function useInvalidatingMutation<TArgs extends unknown[], TData>(
  mutationFn: (...args: TArgs) => Promise<TData>,
  invalidates: (...args: TArgs) => QueryKey,
): (...args: TArgs) => Promise<TData> {
  const client = useQueryClient();
  const { mutateAsync } = useMutation({
    mutationFn: (args: TArgs) => mutationFn(...args),
    onSettled: (_data, _error, args) => {
      void client.invalidateQueries({ queryKey: invalidates(...args) });
    },
  });
  return useCallback((...args: TArgs) => mutateAsync(args), [mutateAsync]);
}
