import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getToken } from '../token-storage';

/**
 * Keeps the query client current from the push channel while the calling component is mounted: the
 * signed-in app shell (`app/app-layout.tsx`). Every screen that reads a catalogue query is drawn inside
 * it, and the only other screens there are the boards, which hold the same shared socket anyway, so
 * holding it for the shell's lifetime opens no connection the old per-list subscriptions did not,
 * with no reference counting of its own. `catalog-sync.ts` (and the socket client with it) loads on
 * demand, outside the login bundle.
 */
export function useCatalogSync(): void {
  const client = useQueryClient();
  useEffect(() => {
    const token = getToken();
    if (!token) return;
    let stop: (() => void) | null = null;
    let unmounted = false;
    void import('./catalog-sync').then(({ holdCatalogSync }) => {
      if (!unmounted) stop = holdCatalogSync(client, token);
    });
    return () => {
      unmounted = true;
      stop?.();
    };
  }, [client]);
}
