import { Field, NativeSelect } from '@chakra-ui/react';
import type { SelectOption } from './form-select-field';

/** Props of {@link SelectField}. */
export interface SelectFieldProps {
  label: string;
  value: string;
  options: readonly SelectOption[];
  onChange: (value: string) => void;
  /** An empty first choice: shown greyed ('Seleccione…') or, with `emptyOption`, as a real choice. */
  placeholder?: string;
  /** A first choice with value '' that is a real choice (a filter's 'Todos'). */
  emptyOption?: string;
  disabled?: boolean;
  size?: 'sm' | 'md';
}

/**
 * A labelled native select held by its screen's state rather than a form (filters, a dialog's choice);
 * the form-bound twin is `FormSelectField`.
 */
export function SelectField({
  label,
  value,
  options,
  onChange,
  placeholder,
  emptyOption,
  disabled,
  size,
}: SelectFieldProps) {
  return (
    <Field.Root>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root size={size} disabled={disabled}>
        <NativeSelect.Field
          placeholder={placeholder}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value)}
        >
          {emptyOption === undefined ? null : <option value="">{emptyOption}</option>}
          <SelectOptions options={options} />
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

/** The `<option>`s of a select's choices (shared by both select fields). */
export function SelectOptions({ options }: { options: readonly SelectOption[] }) {
  return options.map((option) => (
    <option key={option.value} value={option.value}>
      {option.label}
    </option>
  ));
}
