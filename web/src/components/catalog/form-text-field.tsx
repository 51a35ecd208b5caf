import { Field, Input } from '@chakra-ui/react';
import type { UseFormRegisterReturn } from 'react-hook-form';

/** Props of {@link FormTextField}. */
export interface FormTextFieldProps {
  /** The visible label; tests find the field by it. */
  label: string;
  /** The message under the field ('Este campo es requerido'), if any. */
  error?: string;
  /** `register('field')` of react-hook-form. */
  registration: UseFormRegisterReturn;
  type?: 'text' | 'date';
  placeholder?: string;
  helperText?: string;
}

/** A labelled text (or date) input bound to react-hook-form, with its error under it. */
export function FormTextField({
  label,
  error,
  registration,
  type = 'text',
  placeholder,
  helperText,
}: FormTextFieldProps) {
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label>{label}</Field.Label>
      <Input type={type} placeholder={placeholder} autoComplete="off" {...registration} />
      {helperText && !error ? <Field.HelperText>{helperText}</Field.HelperText> : null}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
