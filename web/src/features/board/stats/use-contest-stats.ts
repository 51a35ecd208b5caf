import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { statsRoutes } from '@concurso/shared';
import { callApi } from '../../../api/call-api';
import { useBoardStore } from '../../../stores/board-store';
import { STATS_REFETCH_INTERVAL_MS, refetchDelay } from './stats-chart-data';

/**
 * A contest's statistics (`GET /api/contestStats/{contestId}`, issue 13), kept live: refetched after
 * the board store changes (an attempt or a block changes a row), at most once every
 * `STATS_REFETCH_THROTTLE_MS`, and every `STATS_REFETCH_INTERVAL_MS` however quiet the board is.
 */
export function useContestStats(contestId: number) {
  const query = useQuery({
    queryKey: ['contest_stats', contestId],
    queryFn: ({ signal }) =>
      callApi(statsRoutes.contestStats, { params: { contestId }, signal }).then((answer) => answer.data),
    refetchInterval: STATS_REFETCH_INTERVAL_MS,
    meta: { failure: 'No se pudieron cargar las estadísticas' },
  });
  const { refetch, dataUpdatedAt } = query;
  const teams = useBoardStore((state) => state.teams);
  const lastFetch = useRef(dataUpdatedAt);
  lastFetch.current = Math.max(lastFetch.current, dataUpdatedAt);
  const seen = useRef(teams);

  // One timer at a time: changes inside the throttle window fold into the refetch already waiting.
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (seen.current === teams) return;
    seen.current = teams;
    if (timer.current) return;
    timer.current = setTimeout(
      () => {
        timer.current = null;
        lastFetch.current = Date.now();
        void refetch();
      },
      refetchDelay(Date.now(), lastFetch.current),
    );
  }, [teams, refetch]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return query;
}
