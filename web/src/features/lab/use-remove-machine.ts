import { useCallback } from 'react';
import { MESSAGES, labRoutes } from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { useInvalidatingMutation } from '../../api/queries/use-invalidating-mutation';
import { confirmedAction } from '../../catalog-screen/confirmed-action';
import { toaster } from '../../ui/toaster';
import { LAB_KEY } from './lab-query';
import { removeMachineQuestion, type LabTableRow } from './lab-rows';

/** `POST /api/removeLabMachine` (`labRoutes.removeMachine`, admin). */
const remove = (row: LabTableRow) => callApi(labRoutes.removeMachine, { body: { id: row.machineId } });
const labKey = () => [...LAB_KEY];

/**
 * 'Quitar' of a /laboratorio row (admins): asks first (`removeMachineQuestion`), then removes the
 * machine under 'Procesando…' and toasts the server's message; the board refetches. A failure opens
 * 'Error' with the server's text.
 */
export function useRemoveMachine(): (row: LabTableRow) => Promise<void> {
  const removeMachine = useInvalidatingMutation(remove, labKey);
  return useCallback(
    async (row: LabTableRow) => {
      const answer = await confirmedAction({
        question: removeMachineQuestion(row),
        run: () => removeMachine(row),
        what: `quitar la máquina ${row.hostname}`,
      });
      if (!answer) return;
      toaster.create({
        type: 'success',
        title: answer.message || MESSAGES.saved,
        description: `${row.hostname} (${row.team})`,
        duration: 3000,
      });
    },
    [removeMachine],
  );
}
