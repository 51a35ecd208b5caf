import { MESSAGES } from '@concurso/shared';
import { useShallow } from 'zustand/react/shallow';
import { useFeedbackStore } from '../stores/feedback-store';
import { ConfirmDialog } from '../ui/dialog/confirm-dialog';
import { MessageDialog } from '../ui/dialog/message-dialog';
import { ProgressDialog } from '../ui/dialog/progress-dialog';

/**
 * Renders the catalogue screens' modal feedback: the feedback store's message, question and
 * 'Procesando…' (with an upload's progress and 'Cancelar'), and the dialog of a failed list load
 * (docs/spec.md section 8).
 */
export function FeedbackHost() {
  // One subscription; a shallow compare re-renders only when one of these fields changes.
  const { message, messageOpen, question, questionOpen, busy, transfer, listError } = useFeedbackStore(
    useShallow(({ message, messageOpen, question, questionOpen, busy, transfer, listError }) => ({
      message,
      messageOpen,
      question,
      questionOpen,
      busy,
      transfer,
      listError,
    })),
  );

  return (
    <>
      <ConfirmDialog
        open={questionOpen}
        title={question?.title ?? ''}
        message={question?.message}
        confirmLabel={question?.confirmLabel}
        cancelLabel={question?.cancelLabel ?? 'Cancelar'}
        onConfirm={() => useFeedbackStore.getState().answer(true)}
        onCancel={() => useFeedbackStore.getState().answer(false)}
      />
      <ProgressDialog
        open={busy > 0}
        text={transfer ? 'Subiendo archivo…' : undefined}
        percent={transfer ? transfer.percent : undefined}
        onCancel={transfer?.cancel}
      />
      <MessageDialog
        open={messageOpen}
        title={message?.title ?? ''}
        message={message?.message ?? ''}
        buttonLabel={message?.buttonLabel ?? MESSAGES.ok}
        onClose={() => useFeedbackStore.getState().closeMessage()}
      />
      <MessageDialog
        open={listError !== null}
        title={listError?.title ?? ''}
        message={listError?.message ?? ''}
        onClose={() => useFeedbackStore.getState().dismissListError()}
      />
    </>
  );
}
