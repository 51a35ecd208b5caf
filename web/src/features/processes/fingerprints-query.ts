import type { QueryFunctionContext } from '@tanstack/react-query';
import { processesRoutes, type ProcessFingerprints } from '@concurso/shared';
import { callApi } from '../../api/call-api';

/** The query key of one process's fingerprints (a confirm or a removal invalidates every process's). */
export const FINGERPRINTS_KEY = ['processFingerprints'] as const;

/**
 * `GET /api/processFingerprints/{id}` (admin) as a query: the process's fingerprints in the
 * active contest, refetched every few seconds while the dialog is open (agents keep reporting).
 */
export function fingerprintsQuery(processId: number) {
  return {
    queryKey: [...FINGERPRINTS_KEY, processId],
    queryFn: ({ signal }: QueryFunctionContext): Promise<ProcessFingerprints> =>
      callApi(processesRoutes.fingerprints, { params: { id: processId }, query: {}, signal }).then(
        (answer) => answer.data,
      ),
    refetchInterval: 5_000,
    meta: { failure: 'No se pudieron cargar las huellas del proceso' },
  };
}
