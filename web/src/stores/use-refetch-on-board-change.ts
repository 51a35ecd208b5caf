import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { acquireLiveSocket } from '../api/live-socket';
import { boardChangeListeners, boardSignatures } from '../api/queries/board-changes';
import { throttle } from '../api/queries/throttle';
import { getToken } from '../api/token-storage';
import { useBoardStore } from './board-store';

/** Options of {@link useRefetchOnBoardChange}. */
export interface RefetchOnBoardChangeOptions {
  /** At most one refetch every this many ms; changes meanwhile gather into one refetch at its end. */
  throttleMs: number;
  /** Only this team's changes refetch (a team's 'Historial'); every team's when undefined. */
  teamId?: number;
  /** False while nothing is shown (a closed dialog): no socket is held. Default true. */
  enabled?: boolean;
  /** An agent's presence or alert changing refetches too (/laboratorio, /bitacora). */
  withAgent?: boolean;
}

/**
 * Keeps queries current with the board's pushes: while mounted and `enabled`, holds the
 * tab's shared live socket and invalidates `queryKeys` (each a key or a key prefix) whenever a team's
 * attempts or status change, a team is removed, another contest is activated or the socket comes back
 * after a drop (`boardChangeListeners`), at most once every `throttleMs` (`throttle`). Never renders:
 * it listens to the socket outside React's state, so a frame that only moves an agent's presence
 * costs nothing. /home's statistics (5 s), /bitacora (2 s) and a team's 'Historial' use it.
 *
 * Why the socket rather than the board store: /bitacora shows no board (its store is not started);
 * on the boards the socket is the store's own, so the hook adds listeners, not a connection. The
 * store's teams, when it holds any, are what the hook starts from (they need no refetch).
 */
export function useRefetchOnBoardChange(
  queryKeys: readonly QueryKey[],
  { throttleMs, teamId, enabled = true, withAgent = false }: RefetchOnBoardChangeOptions,
): void {
  const client = useQueryClient();
  // The keys are read when a refetch fires: callers may build them anew on every render.
  const keys = useRef(queryKeys);
  keys.current = queryKeys;
  useEffect(() => {
    const token = getToken();
    if (!enabled || !token) return;
    const refetch = throttle(() => {
      for (const queryKey of keys.current) void client.invalidateQueries({ queryKey });
    }, throttleMs);
    const held = Object.values(useBoardStore.getState().teams);
    const known = boardSignatures(
      teamId === undefined ? held : held.filter((team) => team.id === teamId),
      withAgent,
    );
    const lease = acquireLiveSocket(token);
    const detach = lease.bus.on(boardChangeListeners(() => refetch.request(), { teamId, known, withAgent }));
    return () => {
      refetch.cancel();
      detach();
      lease.release();
    };
  }, [client, throttleMs, teamId, enabled, withAgent]);
}
