import { useCallback } from 'react';
import { MESSAGES, contestsRoutes, type ContestRow } from '@concurso/shared';
import { describeError } from '../../api/api-error';
import { callApi } from '../../api/call-api';
import { catalogListKey } from '../../api/queries/catalog-queries';
import { useInvalidatingMutation } from '../../api/queries/use-invalidating-mutation';
import { useFeedbackStore } from '../../stores/feedback-store';
import { toaster } from '../../ui/toaster';
import { activationQuestion } from './contest-form-values';

/** `POST /api/activateContest/{id}` (`contestsRoutes.activate`, admin). */
const activate = (id: number) => callApi(contestsRoutes.activate, { params: { id } });
const contestsKey = () => catalogListKey('contests');

/**
 * 'Activar' of a contest row (issue 13, DESIGN.md section 3): asks first, saying what changes ("Los
 * tableros y los agentes pasarán al concurso 2027A"), then activates it under 'Procesando…' and shows
 * the server's message as a toast. The contests list refetches (ACTIVO moves); the boards, the
 * projector and the agents follow through the server's `board.reset` push. A failure opens 'Error'
 * with the server's text. `current` is the contest active now (null when none).
 */
export function useActivateContest(): (contest: ContestRow, current: ContestRow | null) => Promise<void> {
  const activateContest = useInvalidatingMutation(activate, contestsKey);
  return useCallback(
    async (contest: ContestRow, current: ContestRow | null) => {
      const feedback = useFeedbackStore.getState();
      if (!(await feedback.ask(activationQuestion(contest, current)))) return;
      try {
        const answer = await feedback.withProgress(() => activateContest(contest.id));
        toaster.create({
          type: 'success',
          title: answer.message || MESSAGES.processed,
          description: `Concurso activo: ${answer.data.calendar}`,
          duration: 3000,
        });
      } catch (error) {
        console.error(`No se pudo activar el concurso ${contest.id}`, error);
        feedback.showMessage({ title: MESSAGES.error, message: describeError(error) });
      }
    },
    [activateContest],
  );
}
