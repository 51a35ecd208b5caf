import type { UseFormRegisterReturn } from 'react-hook-form';
import { useContestOptions } from '../../catalog-screen/use-contest-options';
import { FormSelectField } from '../../ui/form/form-select-field';

/**
 * The create modal's 'Copiar procesos bloqueados de': every contest, newest first, or
 * 'Ninguno' (the new contest starts with no blocked process). Sent as `copy_from_contests_id`.
 */
export function CopyBlockedFromField({
  registration,
  error,
}: {
  registration: UseFormRegisterReturn;
  error?: string;
}) {
  const { options } = useContestOptions();
  return (
    <FormSelectField
      label="Copiar procesos bloqueados de"
      placeholder="Ninguno"
      options={options}
      error={error}
      registration={registration}
    />
  );
}
