import { useRef } from 'react';
import { Button, Field, HStack, Input, Text } from '@chakra-ui/react';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';

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
 * A labelled file picker bound to react-hook-form: the field's value is the chosen `File` (or null).
 * The native input keeps the label and the picker, but is visually hidden: its own button speaks the
 * browser's language, so a Spanish 'Seleccionar archivo' button and the chosen name stand in for it.
 * A file input cannot be given a value; the modal unmounts it on close, which clears it.
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
  const input = useRef<HTMLInputElement | null>(null);
  const file = field.value as File | null | undefined;
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label>{label}</Field.Label>
      <Input
        type="file"
        accept={accept}
        name={field.name}
        srOnly
        tabIndex={-1}
        ref={(element) => {
          field.ref(element);
          input.current = element;
        }}
        onBlur={field.onBlur}
        onChange={(event) => field.onChange(event.currentTarget.files?.[0] ?? null)}
      />
      <HStack
        gap="3"
        w="full"
        borderWidth="1px"
        rounded="md"
        p="1"
        borderColor={error ? 'border.error' : undefined}
      >
        <Button size="sm" variant="outline" onClick={() => input.current?.click()}>
          Seleccionar archivo
        </Button>
        <Text truncate color={file ? undefined : 'fg.muted'} data-testid="chosen-file">
          {file ? file.name : 'Ningún archivo seleccionado'}
        </Text>
      </HStack>
      {helperText && !error ? <Field.HelperText>{helperText}</Field.HelperText> : null}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
