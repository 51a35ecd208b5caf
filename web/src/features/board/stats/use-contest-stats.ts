import { useQuery } from '@tanstack/react-query';
import { statsRoutes } from '@concurso/shared';
import { callApi } from '../../../api/call-api';
import { useRefetchOnBoardChange } from '../../../stores/use-refetch-on-board-change';

/** The least time between two refetches of the statistics caused by board changes (ms). */
const STATS_REFETCH_THROTTLE_MS = 5_000;
/** The refetch of the statistics however quiet the board is (ms): they also change without a board row. */
const STATS_REFETCH_INTERVAL_MS = 60_000;

/**
 * A contest's statistics (`GET /api/contestStats/{contestId}`), kept live: refetched when the
 * board pushes a change of attempts or status (`useRefetchOnBoardChange`, never for a presence-only
 * frame, and without rendering the panel for the frames themselves), at most once every
 * `STATS_REFETCH_THROTTLE_MS`, and every `STATS_REFETCH_INTERVAL_MS` however quiet the board is.
 */
export function useContestStats(contestId: number) {
  const queryKey = ['contest_stats', contestId];
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) =>
      callApi(statsRoutes.contestStats, { params: { contestId }, signal }).then((answer) => answer.data),
    refetchInterval: STATS_REFETCH_INTERVAL_MS,
    meta: { failure: 'No se pudieron cargar las estadísticas' },
  });
  useRefetchOnBoardChange([queryKey], { throttleMs: STATS_REFETCH_THROTTLE_MS });
  return query;
}
