import type { QueryFunctionContext } from '@tanstack/react-query';
import { logsRoutes, type ContestLog } from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { CONTEST_LOG_KEY } from '../../api/queries/stale-catalogs';
import type { ContestLogFilters } from './contest-log-rows';

// The first part of every /bitacora query's key: what a board push, a message or a change of the
// allowed sites invalidates (api/queries/stale-catalogs.ts).
export { CONTEST_LOG_KEY };

/** At most one refetch of the log every this many ms while boards push. */
export const CONTEST_LOG_REFRESH_MS = 2_000;

/**
 * `GET /api/contestLog` with `filters` as a query: the active contest and its log, newest
 * first. Keyed `['contestLog', filters]`, so each combination of filters is cached apart and a push
 * invalidates them all (`[CONTEST_LOG_KEY]`).
 */
export function contestLogQuery(filters: ContestLogFilters) {
  return {
    queryKey: [CONTEST_LOG_KEY, filters] as const,
    queryFn: ({ signal }: QueryFunctionContext): Promise<ContestLog> =>
      callApi(logsRoutes.contestLog, { query: filters, signal }).then((answer) => answer.data),
    meta: { failure: 'No se pudo cargar la bitácora del concurso' },
  };
}
