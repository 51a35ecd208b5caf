import { useCallback } from 'react';
import { MESSAGES } from '@concurso/shared';
import { describeError } from '../../api/api-error';
import { fetchExercisePdf } from '../../api/exercise-api';
import { useFeedbackStore } from '../../stores/feedback-store';

/** How long an opened PDF's blob URL lives (ms): long enough for the viewer, then its memory is freed. */
const PDF_URL_LIFETIME_MS = 5 * 60_000;

/**
 * 'Ver PDF': opens the exercise's PDF in a new tab. The PDF needs the bearer token, so it is fetched as
 * a blob and shown through a blob: URL. The tab is opened at once, in the click, because a tab opened
 * after an await is taken for a popup and blocked; it is pointed at the PDF when it arrives, or closed
 * with an 'Error' dialog when it fails.
 */
export function useOpenExercisePdf(): (exerciseId: number) => Promise<void> {
  return useCallback(async (exerciseId: number) => {
    const tab = window.open('', '_blank');
    if (tab) tab.document.title = 'Cargando el PDF…';
    try {
      const blob = await fetchExercisePdf(exerciseId);
      const url = URL.createObjectURL(blob);
      setTimeout(() => URL.revokeObjectURL(url), PDF_URL_LIFETIME_MS);
      if (tab && !tab.closed) tab.location.href = url;
      else window.open(url, '_blank');
    } catch (error) {
      console.error(`No se pudo abrir el PDF del ejercicio ${exerciseId}`, error);
      tab?.close();
      useFeedbackStore.getState().showMessage({ title: MESSAGES.error, message: describeError(error) });
    }
  }, []);
}
