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
  type?: 'text' | 'date' | 'password' | 'number';
  placeholder?: string;
  helperText?: string;
  /** 'off' by default; 'new-password' keeps browsers from filling in the admin's own password. */
  autoComplete?: string;
}

/** A labelled text (date, password, number) input bound to react-hook-form, with its error under it. */
export function FormTextField({
  label,
  error,
  registration,
  type = 'text',
  placeholder,
  helperText,
  autoComplete = 'off',
}: FormTextFieldProps) {
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label>{label}</Field.Label>
      <Input type={type} placeholder={placeholder} autoComplete={autoComplete} {...registration} />
      {helperText && !error ? <Field.HelperText>{helperText}</Field.HelperText> : null}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
