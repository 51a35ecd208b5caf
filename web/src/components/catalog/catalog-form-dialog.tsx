import type { ReactNode } from 'react';
import { Button, CloseButton, Dialog, Portal, Stack, chakra } from '@chakra-ui/react';
import type { CatalogFormControls } from '../../hooks/use-catalog-form';

/** Props of {@link CatalogFormDialog}. */
export interface CatalogFormDialogProps {
  /** The form's state and actions (`useCatalogForm`): title 'Registrar …' / 'Editar …', open, submit. */
  controls: CatalogFormControls;
  /** The fields. */
  children: ReactNode;
}

/**
 * The create / edit modal of a catalogue: title, the fields, 'Cancelar' and 'Guardar'. It cannot be
 * dismissed while saving; the form resets after the closing animation, so the fields do not empty
 * while still visible.
 */
export function CatalogFormDialog({ controls, children }: CatalogFormDialogProps) {
  const { open, title, submitting, submit, close: onClose, afterClose: onExitComplete } = controls;
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => {
        if (!details.open && !submitting) onClose();
      }}
      onExitComplete={onExitComplete}
      closeOnInteractOutside={!submitting}
      closeOnEscape={!submitting}
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <chakra.form noValidate onSubmit={(event) => void submit(event)}>
              <Dialog.Header>
                <Dialog.Title>{title}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">{children}</Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onClose} disabled={submitting}>
                  Cancelar
                </Button>
                <Button type="submit" colorPalette="blue" loading={submitting}>
                  Guardar
                </Button>
              </Dialog.Footer>
            </chakra.form>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Cerrar" disabled={submitting} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
