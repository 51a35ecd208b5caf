import { MESSAGES } from '@concurso/shared';
import { AppDialog } from './app-dialog';

/** Props of {@link MessageDialog}. */
export interface MessageDialogProps {
  open: boolean;
  title: string;
  message: string;
  /** Text of the only button; 'Listo!' by default. */
  buttonLabel?: string;
  onClose: () => void;
}

/** A modal message with one button (errors, warnings, information). */
export function MessageDialog({
  open,
  title,
  message,
  buttonLabel = MESSAGES.ok,
  onClose,
}: MessageDialogProps) {
  return (
    <AppDialog
      open={open}
      onClose={onClose}
      role="alertdialog"
      title={title}
      description={message}
      closeLabel={buttonLabel}
    />
  );
}
