import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import { FilePicker } from './file-picker';

/** Props of {@link FormFileField}. */
export interface FormFileFieldProps<TValues extends FieldValues, TOutput> {
  label: string;
  /** The form's `control`; the field holds the chosen `File` or null. */
  control: Control<TValues, unknown, TOutput>;
  name: Path<TValues>;
  /** The file types the picker offers, e.g. 'application/pdf'. */
  accept?: string;
  error?: string;
  helperText?: string;
}

/**
 * A labelled file picker (`FilePicker`) bound to react-hook-form: the field's value is the chosen
 * `File` (or null). A file input cannot be given a value; the modal unmounts it on close, which
 * clears it.
 */
export function FormFileField<TValues extends FieldValues, TOutput>({
  label,
  control,
  name,
  accept,
  error,
  helperText,
}: FormFileFieldProps<TValues, TOutput>) {
  const { field } = useController({ control, name });
  return (
    <FilePicker
      label={label}
      file={(field.value as File | null | undefined) ?? null}
      onChange={field.onChange}
      accept={accept}
      name={field.name}
      inputRef={field.ref}
      onBlur={field.onBlur}
      error={error}
      helperText={helperText}
    />
  );
}
