import { Field, NativeSelect } from '@chakra-ui/react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { SelectOptions } from './select-field';

/** One choice of a select. */
export interface SelectOption {
  value: string;
  label: string;
}

/** Props of {@link FormSelectField}. */
export interface FormSelectFieldProps {
  label: string;
  error?: string;
  registration: UseFormRegisterReturn;
  options: readonly SelectOption[];
  /** The empty first choice ('Seleccione…'); none when the field always has a value. */
  placeholder?: string;
}

/** A labelled native select bound to react-hook-form, with its error under it. */
export function FormSelectField({ label, error, registration, options, placeholder }: FormSelectFieldProps) {
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field placeholder={placeholder} {...registration}>
          <SelectOptions options={options} />
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
