import { useRef, type Ref } from 'react';
import { Button, Field, HStack, Input, Text } from '@chakra-ui/react';

/** Props of {@link FilePicker}. */
export interface FilePickerProps {
  label: string;
  /** The chosen file, held by the caller (a form field, a dialog's state); null when none is. */
  file: File | null;
  /** Called with the file chosen, or null when the browser's picker was cancelled. */
  onChange: (file: File | null) => void;
  /** The file types the picker offers, e.g. 'application/pdf' or '.xlsx,.csv'. */
  accept?: string;
  /** The native input's name (a form's field name). */
  name?: string;
  /** The native input, for a form library's focus on error. */
  inputRef?: Ref<HTMLInputElement>;
  onBlur?: () => void;
  disabled?: boolean;
  error?: string;
  helperText?: string;
}

/**
 * A labelled file picker whose file is held by the caller. The native input keeps the label and the
 * picker, but is visually hidden: its own button speaks the browser's language, so a Spanish
 * 'Seleccionar archivo' button and the chosen name (`data-testid="chosen-file"`, or 'Ningún archivo
 * seleccionado') stand in for it. The input is emptied after every choice, so choosing the same file
 * again (after fixing it) is a choice again. Used by `FormFileField` and the teams' import.
 */
export function FilePicker({
  label,
  file,
  onChange,
  accept,
  name,
  inputRef,
  onBlur,
  disabled,
  error,
  helperText,
}: FilePickerProps) {
  const input = useRef<HTMLInputElement | null>(null);
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label>{label}</Field.Label>
      <Input
        type="file"
        accept={accept}
        name={name}
        srOnly
        tabIndex={-1}
        ref={(element) => {
          input.current = element;
          if (typeof inputRef === 'function') inputRef(element);
          else if (inputRef) inputRef.current = element;
        }}
        onBlur={onBlur}
        onChange={(event) => {
          onChange(event.currentTarget.files?.[0] ?? null);
          event.currentTarget.value = '';
        }}
      />
      <HStack
        gap="3"
        w="full"
        borderWidth="1px"
        rounded="md"
        p="1"
        borderColor={error ? 'border.error' : undefined}
      >
        <Button size="sm" variant="outline" disabled={disabled} onClick={() => input.current?.click()}>
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
