import { Button, Dialog, Portal } from '@chakra-ui/react';
import { MESSAGES } from '@concurso/shared';

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
    <Dialog.Root
      open={open}
      onOpenChange={(details) => {
        if (!details.open) onClose();
      }}
      role="alertdialog"
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Dialog.Description>{message}</Dialog.Description>
            </Dialog.Body>
            <Dialog.Footer>
              <Button colorPalette="blue" onClick={onClose}>
                {buttonLabel}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
