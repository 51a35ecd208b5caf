import { useCallback } from 'react';
import { MESSAGES } from '@concurso/shared';
import { deleteCatalogRow, type ListCatalog } from '../api/catalog-api';
import { toaster } from '../components/toaster';
import { useCatalogStore } from '../stores/catalog-store';
import { useFeedbackStore } from '../stores/feedback-store';
import { describeDeleteFailure } from './catalog-failures';

/**
 * The delete flow of a catalogue row (SPEC.md sections 4 and 8): '¿Está seguro?' with 'Sí, eliminar' /
 * 'Cancelar', then the call under 'Procesando…', then '¡Correcto!' / 'Dato Eliminado.' and the list
 * reloads; a refusal shows the server's reason (what uses the row) or the generic delete failure.
 */
export function useCatalogDelete(catalog: ListCatalog): (id: number, name?: string) => Promise<void> {
  return useCallback(
    async (id: number, name?: string) => {
      const feedback = useFeedbackStore.getState();
      const yes = await feedback.ask({
        title: MESSAGES.confirmDeleteTitle,
        message: name ? `${MESSAGES.confirmDeleteText} (${name})` : MESSAGES.confirmDeleteText,
        confirmLabel: MESSAGES.confirmDelete,
        cancelLabel: 'Cancelar',
      });
      if (!yes) return;
      try {
        const answer = await feedback.withProgress(() => deleteCatalogRow(catalog, id));
        toaster.create({
          type: 'success',
          title: MESSAGES.correct,
          description: answer.message || MESSAGES.deleted,
          duration: 3000,
        });
      } catch (error) {
        console.error(`No se pudo eliminar (${catalog} ${id})`, error);
        feedback.showMessage(describeDeleteFailure(error));
      } finally {
        // Also after a refusal: the row may be gone (404) or the list stale.
        void useCatalogStore.getState().reload(catalog);
      }
    },
    [catalog],
  );
}
