import { useCallback } from 'react';
import { importsRoutes } from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { catalogListKey } from '../../api/queries/catalog-queries';
import { useInvalidatingMutation } from '../../api/queries/use-invalidating-mutation';
import { confirmedAction } from '../../catalog-screen/confirmed-action';
import { toaster } from '../../ui/toaster';
import { undoQuestion, type TeamImportTableRow } from './team-import-rows';

/** `POST /api/undoTeamImport/{id}` (admin). */
const undo = (id: number) => callApi(importsRoutes.undo, { params: { id } });
/** The teams list and, under its key, the imports (`teamImportsKey`). */
const teamsKey = () => catalogListKey('teams');

/**
 * 'Deshacer' of an import: asks first (what it deletes, from which contest), runs under
 * 'Procesando…' and toasts 'Se deshizo la importación: N equipos eliminados.'; the imports and teams
 * lists refetch. A refusal (a team got an attempt meanwhile: 409) opens 'Error' with the server's text.
 */
export function useUndoImport() {
  const run = useInvalidatingMutation(undo, teamsKey);
  return useCallback(
    async (row: TeamImportTableRow) => {
      const answer = await confirmedAction({
        question: undoQuestion(row),
        run: () => run(row.id),
        what: `deshacer la importación ${row.id}`,
      });
      if (answer) toaster.create({ type: 'success', title: answer.message, duration: 4000 });
    },
    [run],
  );
}
