import type { QueryFunctionContext } from '@tanstack/react-query';
import { labRoutes, type LabMachines } from '@concurso/shared';
import { callApi } from '../../api/call-api';

/**
 * How often the open lab board refetches (ms): a machine's heartbeat (every few seconds) is what moves
 * it, and the query is one read of the active contest's teams and machines.
 */
const LAB_REFRESH_MS = 3_000;

/** The query key of the lab board. */
export const LAB_KEY = ['labMachines'] as const;

/** `GET /api/labMachines` as a query, refetched every `LAB_REFRESH_MS` while shown. */
export function labQuery() {
  return {
    queryKey: LAB_KEY,
    queryFn: ({ signal }: QueryFunctionContext): Promise<LabMachines> =>
      callApi(labRoutes.machines, { signal }).then((answer) => answer.data),
    refetchInterval: LAB_REFRESH_MS,
    meta: { failure: 'No se pudieron cargar las máquinas del laboratorio' },
  };
}
