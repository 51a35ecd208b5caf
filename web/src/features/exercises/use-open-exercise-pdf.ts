import { useCallback } from 'react';
import { MESSAGES, exercisesRoutes } from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { describeError } from '../../api/api-error';
import { useFeedbackStore } from '../../stores/feedback-store';

/**
 * 'Ver PDF': opens the exercise's PDF in a new tab, at a URL whose last segment is the file's original
 * name (the tab's title and a saved copy carry that name, not a blob's UUID). A tab sends no
 * bearer token, so the server first answers that URL with a short ticket for this one PDF
 * (`exercisesRoutes.pdfLink`). The tab is opened at once, in the click, because a tab opened after an
 * await is taken for a popup and blocked; it is pointed at the PDF when the link arrives, or closed
 * with an 'Error' dialog when it fails.
 */
export function useOpenExercisePdf(): (exerciseId: number) => Promise<void> {
  return useCallback(async (exerciseId: number) => {
    const tab = window.open('', '_blank');
    if (tab) tab.document.title = 'Cargando el PDF…';
    try {
      const { url } = (await callApi(exercisesRoutes.pdfLink, { params: { id: exerciseId } })).data;
      if (tab && !tab.closed) tab.location.href = url;
      else window.open(url, '_blank');
    } catch (error) {
      console.error(`No se pudo abrir el PDF del ejercicio ${exerciseId}`, error);
      tab?.close();
      useFeedbackStore.getState().showMessage({ title: MESSAGES.error, message: describeError(error) });
    }
  }, []);
}
