import { useCallback } from 'react';
import { MESSAGES, contestsRoutes, type ContestRow } from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { catalogListKey } from '../../api/queries/catalog-queries';
import { useInvalidatingMutation } from '../../api/queries/use-invalidating-mutation';
import { confirmedAction } from '../../catalog-screen/confirmed-action';
import { toaster } from '../../ui/toaster';
import { activationQuestion } from './contest-form-values';

/** `POST /api/activateContest/{id}` (`contestsRoutes.activate`, admin). */
const activate = (id: number) => callApi(contestsRoutes.activate, { params: { id } });
const contestsKey = () => catalogListKey('contests');

/**
 * 'Activar' of a contest row (docs/design.md section 3): asks first, saying what changes ("Los
 * tableros y los agentes pasarán al concurso 2027A"), then activates it under 'Procesando…' and shows
 * the server's message as a toast. The contests list refetches (ACTIVO moves); the boards, the
 * projector and the agents follow through the server's `board.reset` push. A failure opens 'Error'
 * with the server's text. `current` is the contest active now (null when none).
 */
export function useActivateContest(): (contest: ContestRow, current: ContestRow | null) => Promise<void> {
  const activateContest = useInvalidatingMutation(activate, contestsKey);
  return useCallback(
    async (contest: ContestRow, current: ContestRow | null) => {
      const answer = await confirmedAction({
        question: activationQuestion(contest, current),
        run: () => activateContest(contest.id),
        what: `activar el concurso ${contest.id}`,
      });
      if (!answer) return;
      toaster.create({
        type: 'success',
        title: answer.message || MESSAGES.processed,
        description: `Concurso activo: ${answer.data.calendar}`,
        duration: 3000,
      });
    },
    [activateContest],
  );
}
