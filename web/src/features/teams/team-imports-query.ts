import type { QueryFunctionContext } from '@tanstack/react-query';
import { importsRoutes, type TeamImportRow } from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { catalogListKey } from '../../api/queries/catalog-queries';

/**
 * The query key of 'Importaciones': under the teams list's, so `catalog.changed` 'teams' (an import,
 * an undo, a team deleted by hand) marks it stale with the list (`catalog-sync.ts`).
 */
const teamImportsKey = () => [...catalogListKey('teams'), 'imports'];

/** `GET /api/getTeamImports` (admin) as a query: every import, newest first. */
export function teamImportsQuery() {
  return {
    queryKey: teamImportsKey(),
    queryFn: ({ signal }: QueryFunctionContext): Promise<TeamImportRow[]> =>
      callApi(importsRoutes.list, { signal }).then((answer) => answer.data),
    meta: { failure: 'No se pudieron cargar las importaciones' },
  };
}
