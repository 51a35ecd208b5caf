import { MESSAGES } from '@concurso/shared';
import { useFeedbackStore } from '../stores/feedback-store';
import { ConfirmDialog } from '../ui/dialog/confirm-dialog';
import { MessageDialog } from '../ui/dialog/message-dialog';
import { ProgressDialog } from '../ui/dialog/progress-dialog';

/**
 * Renders the catalogue screens' modal feedback: the feedback store's message, question and
 * 'Procesando…' (with an upload's progress and 'Cancelar'), and the dialog of a failed list load
 * (SPEC.md section 8).
 */
export function FeedbackHost() {
  const message = useFeedbackStore((state) => state.message);
  const messageOpen = useFeedbackStore((state) => state.messageOpen);
  const question = useFeedbackStore((state) => state.question);
  const questionOpen = useFeedbackStore((state) => state.questionOpen);
  const busy = useFeedbackStore((state) => state.busy);
  const transfer = useFeedbackStore((state) => state.transfer);
  const listError = useFeedbackStore((state) => state.listError);

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
