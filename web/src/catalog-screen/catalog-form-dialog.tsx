import type { ReactNode } from 'react';
import { Stack } from '@chakra-ui/react';
import type { CatalogFormControls } from './use-catalog-form';
import { AppDialog } from '../ui/dialog/app-dialog';
import { FormButtons } from '../ui/form/form-buttons';

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
    <AppDialog
      open={open}
      onClose={onClose}
      busy={submitting}
      onExitComplete={onExitComplete}
      title={title}
      closeButton
      onSubmit={(event) => void submit(event)}
      footer={<FormButtons onCancel={onClose} saving={submitting} />}
    >
      <Stack gap="4">{children}</Stack>
    </AppDialog>
  );
}
