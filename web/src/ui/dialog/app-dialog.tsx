import type { FormEvent, ReactNode } from 'react';
import { Button, CloseButton, Dialog, Portal, chakra, type DialogBodyProps } from '@chakra-ui/react';

/** Props of {@link AppDialog}. */
export interface AppDialogProps {
  open: boolean;
  /**
   * Asked to close: Escape, an outside click or the corner button. Not called while `busy`. Without it
   * the dialog cannot be dismissed at all: it goes away when `open` turns false ('Procesando…').
   */
  onClose?: () => void;
  /** While true (a save running) nothing dismisses the dialog and the corner button is disabled. */
  busy?: boolean;
  /** False keeps an outside click from closing it (a key shown once); Escape still closes it. */
  closeOnInteractOutside?: boolean;
  /** After the closing animation (reset a form, forget a key). */
  onExitComplete?: () => void;
  /** The header's title; without it there is no header (the body names the dialog itself). */
  title?: ReactNode;
  /** The footer's buttons; none: no footer. */
  footer?: ReactNode;
  /** A footer of one button with this text that closes the dialog ('Cerrar', 'Listo!'), instead of `footer`. */
  closeLabel?: string;
  /** A message as the body, read out as the dialog's description. */
  description?: ReactNode;
  /** The body; none: no body (a question without details). */
  children?: ReactNode;
  /** 'alertdialog' for a question or a message the user must answer (docs/spec.md section 4). */
  role?: 'dialog' | 'alertdialog';
  size?: 'xs' | 'sm' | 'md' | 'lg' | 'xl';
  /** 'inside' scrolls a long body between a fixed header and footer (lists, member rows). */
  scrollBehavior?: 'inside' | 'outside';
  /** `data-testid` of the content, for the browser journeys. */
  testId?: string;
  /** Marks the content busy for assistive technology (a progress dialog). */
  ariaBusy?: boolean;
  /** Style of the body (padding of a progress dialog). */
  bodyProps?: DialogBodyProps;
  /** A corner 'Cerrar' button (forms), disabled while `busy`. */
  closeButton?: boolean;
  /**
   * Makes header, body and footer one form without validation by the browser (the shared zod rules
   * validate): a submit button in the footer calls this.
   */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
}

/**
 * The one dialog chrome of the app (Chakra UI v3 `Dialog`): centred, in a portal over a backdrop, with
 * an optional header title, body, footer, corner close button and form. Every modal of the app is
 * one: messages, questions, 'Procesando…', create / edit forms, lists, the agent key.
 */
export function AppDialog({
  open,
  onClose,
  busy = false,
  closeOnInteractOutside,
  onExitComplete,
  title,
  footer,
  closeLabel,
  description,
  children,
  role,
  size,
  scrollBehavior,
  testId,
  ariaBusy,
  bodyProps,
  closeButton = false,
  onSubmit,
}: AppDialogProps) {
  const dismissible = onClose !== undefined && !busy;
  const body = description !== undefined ? <Dialog.Description>{description}</Dialog.Description> : children;
  const buttons =
    closeLabel !== undefined ? (
      <Button colorPalette="blue" onClick={onClose}>
        {closeLabel}
      </Button>
    ) : (
      footer
    );
  const parts = (
    <>
      {title !== undefined ? (
        <Dialog.Header>
          <Dialog.Title>{title}</Dialog.Title>
        </Dialog.Header>
      ) : null}
      {body !== undefined && body !== null ? <Dialog.Body {...bodyProps}>{body}</Dialog.Body> : null}
      {buttons !== undefined ? <Dialog.Footer>{buttons}</Dialog.Footer> : null}
    </>
  );
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => {
        if (!details.open && dismissible) onClose();
      }}
      onExitComplete={onExitComplete}
      closeOnInteractOutside={dismissible && closeOnInteractOutside !== false}
      closeOnEscape={dismissible}
      role={role}
      placement="center"
      size={size}
      scrollBehavior={scrollBehavior}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={testId} aria-busy={ariaBusy}>
            {onSubmit ? (
              // `display: contents` keeps header, body and footer the content's own flex items.
              <chakra.form noValidate onSubmit={onSubmit} display="contents">
                {parts}
              </chakra.form>
            ) : (
              parts
            )}
            {closeButton ? (
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label="Cerrar" disabled={busy} />
              </Dialog.CloseTrigger>
            ) : null}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
