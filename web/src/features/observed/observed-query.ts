import { keepPreviousData, type QueryFunctionContext } from '@tanstack/react-query';
import { observedRoutes, type ObservedProcesses, type ObservedProcessesQuery } from '@concurso/shared';
import { callApi } from '../../api/call-api';

/** The query key of the inventory (every page): what a 'Bloquear' invalidates. */
export const OBSERVED_KEY = ['observedProcesses'] as const;

/**
 * How often the open screen refetches the inventory (ms). Agents report what started every
 * `AGENT_OBSERVED_REPORT_MS`-ish (about 15 s) and nothing pushes it, so a few seconds is fresh enough
 * and costs one page's query per open screen (paged on the server).
 */
const OBSERVED_REFRESH_MS = 5_000;

/** One page of the inventory as the table asks it (`GET /api/observedProcesses`'s query string). */
export type ObservedPageParams = Required<
  Pick<ObservedProcessesQuery, 'page' | 'page_size' | 'sort' | 'dir' | 'q'>
>;

/**
 * `GET /api/observedProcesses` for one page as a query, refetched every
 * `OBSERVED_REFRESH_MS` while shown; the previous page stays on screen while the next one loads.
 */
export function observedQuery(params: ObservedPageParams) {
  return {
    queryKey: [...OBSERVED_KEY, params],
    queryFn: ({ signal }: QueryFunctionContext): Promise<ObservedProcesses> =>
      callApi(observedRoutes.list, { query: params, signal }).then((answer) => answer.data),
    refetchInterval: OBSERVED_REFRESH_MS,
    placeholderData: keepPreviousData,
    meta: { failure: 'No se pudieron cargar los programas observados' },
  };
}
