import type { QueryFunctionContext } from '@tanstack/react-query';
import { observedRoutes, type ObservedProcesses } from '@concurso/shared';
import { callApi } from '../../api/call-api';

/** The query key of the inventory: what a 'Bloquear' invalidates. */
export const OBSERVED_KEY = ['observedProcesses'] as const;

/**
 * How often the open screen refetches the inventory (ms). Agents report what started every
 * `AGENT_OBSERVED_REPORT_MS`-ish (about 15 s) and nothing pushes it, so a few seconds is fresh enough
 * and costs one grouped query per open screen.
 */
export const OBSERVED_REFRESH_MS = 5_000;

/** `GET /api/observedProcesses` (issue 14) as a query, refetched every `OBSERVED_REFRESH_MS` while shown. */
export function observedQuery() {
  return {
    queryKey: OBSERVED_KEY,
    queryFn: ({ signal }: QueryFunctionContext): Promise<ObservedProcesses> =>
      callApi(observedRoutes.list, { query: {}, signal }).then((answer) => answer.data),
    refetchInterval: OBSERVED_REFRESH_MS,
    meta: { failure: 'No se pudieron cargar los programas observados' },
  };
}
