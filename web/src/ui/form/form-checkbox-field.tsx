import { Checkbox } from '@chakra-ui/react';

/** Props of {@link FormCheckboxField}. */
export interface FormCheckboxFieldProps {
  /** The visible label and accessible name ('¿Cambiar contraseña?'). */
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}

/** A labelled checkbox whose state the form holds (not a request field itself). */
export function FormCheckboxField({ label, checked, disabled, onChange }: FormCheckboxFieldProps) {
  return (
    <Checkbox.Root
      checked={checked}
      disabled={disabled}
      onCheckedChange={(details) => onChange(details.checked === true)}
    >
      <Checkbox.HiddenInput />
      <Checkbox.Control />
      <Checkbox.Label>{label}</Checkbox.Label>
    </Checkbox.Root>
  );
}
