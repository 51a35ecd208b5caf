import { MESSAGES } from '@concurso/shared';
import type { DeleteReply } from '../api/catalog-api';
import { toaster } from '../ui/toaster';
import { describeDeleteFailure } from './catalog-failures';
import { confirmedAction } from './confirmed-action';

/** What {@link confirmedDelete} deletes and how. */
export interface ConfirmedDeleteOptions {
  /** Shown in the question, e.g. the row's name. */
  name?: string;
  /** A sentence added to the question: what else goes with the row. */
  warning?: string;
  /** The delete call (a mutation that marks the lists showing the row stale once it settles). */
  remove: () => Promise<DeleteReply>;
  /** Names the row in the console log of a failure. */
  what: string;
}

/** The question of a delete: '¿Está seguro?' with 'El dato se eliminará…', the name and the warning. */
function deleteQuestionText(name?: string, warning?: string): string {
  const base = name ? `${MESSAGES.confirmDeleteText} (${name})` : MESSAGES.confirmDeleteText;
  return warning ? `${base} ${warning}` : base;
}

/**
 * The delete flow of docs/spec.md sections 4 and 8, for any row: '¿Está seguro?' with 'Sí, eliminar' /
 * 'Cancelar', then the call under 'Procesando…', then '¡Correcto!' / 'Dato Eliminado.'; a refusal shows
 * the server's reason (what uses the row) or the generic delete failure. Resolves true once deleted.
 */
export async function confirmedDelete(options: ConfirmedDeleteOptions): Promise<boolean> {
  const answer = await confirmedAction({
    question: {
      title: MESSAGES.confirmDeleteTitle,
      message: deleteQuestionText(options.name, options.warning),
      confirmLabel: MESSAGES.confirmDelete,
      cancelLabel: 'Cancelar',
    },
    run: () => options.remove(),
    what: `eliminar (${options.what})`,
    failure: describeDeleteFailure,
  });
  if (!answer) return false;
  toaster.create({
    type: 'success',
    title: MESSAGES.correct,
    description: answer.message || MESSAGES.deleted,
    duration: 3000,
  });
  return true;
}
