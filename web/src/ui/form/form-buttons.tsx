import { Button } from '@chakra-ui/react';

/** Props of {@link FormButtons}. */
export interface FormButtonsProps {
  onCancel: () => void;
  /** True while the save runs: 'Guardar' spins and 'Cancelar' is disabled. */
  saving: boolean;
  /** Saves on click; without it 'Guardar' submits the dialog's form. */
  onSave?: () => void;
  /** Keeps 'Guardar' disabled (what it saves is still loading). */
  saveDisabled?: boolean;
}

/** The 'Cancelar' and 'Guardar' buttons of a form dialog's footer. */
export function FormButtons({ onCancel, saving, onSave, saveDisabled }: FormButtonsProps) {
  return (
    <>
      <Button variant="outline" onClick={onCancel} disabled={saving}>
        Cancelar
      </Button>
      <Button
        type={onSave ? 'button' : 'submit'}
        colorPalette="blue"
        onClick={onSave}
        disabled={saveDisabled}
        loading={saving}
      >
        Guardar
      </Button>
    </>
  );
}
