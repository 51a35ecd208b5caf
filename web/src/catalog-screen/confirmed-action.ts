import { MESSAGES } from '@concurso/shared';
import { describeError } from '../api/api-error';
import { useFeedbackStore, type MessageView, type QuestionView } from '../stores/feedback-store';

/** What {@link confirmedAction} asks, runs and says. */
export interface ConfirmedActionOptions<T> {
  /** The question first; null runs at once (e.g. a team's first agent key). */
  question: QuestionView | null;
  /** The call (a mutation that marks the lists it changes stale once it settles). */
  run: () => Promise<T>;
  /** Names the action in the console log of a failure, e.g. 'bloquear notas.exe'. */
  what: string;
  /** The failure's dialog; default 'Error' with the server's Spanish message (`describeError`). */
  failure?: (error: unknown) => MessageView;
}

/**
 * The flow of every consequential action of the console (docs/spec.md section 8): the question ('Sí, …' /
 * 'Cancelar'), then the call under 'Procesando…', then the caller's success feedback with the answer.
 * A refusal shows the server's message (or `failure`'s). Resolves with the answer, or null when the
 * user said no or the call failed (already shown).
 */
export async function confirmedAction<T>(options: ConfirmedActionOptions<T>): Promise<T | null> {
  const feedback = useFeedbackStore.getState();
  if (options.question && !(await feedback.ask(options.question))) return null;
  try {
    return await feedback.withProgress(() => options.run());
  } catch (error) {
    console.error(`No se pudo ${options.what}`, error);
    feedback.showMessage(
      options.failure?.(error) ?? { title: MESSAGES.error, message: describeError(error) },
    );
    return null;
  }
}
