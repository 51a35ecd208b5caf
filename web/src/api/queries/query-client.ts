/**
 * The tab's one TanStack Query client: the server state every screen reads (catalogue lists, a
 * contest's blocked processes, a team's members, exercises of a contest and level). `main.tsx`
 * provides it at the root; `catalog-sync.ts` keeps it current from the push channel.
 */
import { QueryCache, QueryClient } from '@tanstack/react-query';
import { onSessionEnd } from '../session-end';
import { describeListError } from './list-errors';
import { reportListFailure } from './list-failures';
import type { ListFailure } from './list-query';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: Partial<ListFailure>;
  }
}

/**
 * A client with the app's rules:
 * - no automatic retry, and no refetch on window focus or network return: a failed load is told at
 *   once (docs/spec.md section 8), and freshness comes from the push channel (`catalog.changed`, and a
 *   refetch of everything after a reconnect), not from polling; nothing waits for the browser to say
 *   it is online (`networkMode: 'always'`);
 * - every failed load is logged with its query's `meta.failure`; one whose `meta.errorDialog` is set
 *   (a catalogue list) also opens the list-failure dialog (`reportListFailure`, which the feedback
 *   store shows), once per failed fetch
 *   however many components read it.
 * A query's data goes stale at once (`staleTime` 0): a screen that mounts refetches what it shows.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        console.error(query.meta?.failure ?? 'No se pudo cargar una lista', error);
        if (query.meta?.errorDialog) reportListFailure(describeListError(error));
      },
    }),
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        networkMode: 'always',
      },
      // 'always': a call made while the browser says it is offline is sent and fails as 'Error de
      // Conexión' (docs/spec.md section 8), instead of waiting paused behind a spinner or 'Procesando…'.
      mutations: { networkMode: 'always' },
    },
  });
}

/** The tab's client (`main.tsx` provides it). */
export const queryClient = createQueryClient();

// An ended session's data is forgotten at once; loads still on their way are cancelled silently
// (no dialog for their 401).
onSessionEnd(() => queryClient.clear());
