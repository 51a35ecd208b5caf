import { Fragment } from 'react';
import { get, type FieldErrors, type FieldValues } from 'react-hook-form';
import type { SelectOption } from '../ui/form/form-select-field';
import { FormSelectField } from '../ui/form/form-select-field';
import { FormTextField } from '../ui/form/form-text-field';
import type { FieldSpec } from './catalog-screen-spec';
import type { CatalogForm } from './use-catalog-form';

/** Props of {@link CatalogFields}. */
export interface CatalogFieldsProps<TValues extends FieldValues, TOutput, TRow> {
  fields: readonly FieldSpec<TValues, TOutput, TRow>[];
  dialog: CatalogForm<TValues, TOutput, TRow>;
  errors: FieldErrors<TValues>;
  /** Choices of the selects without fixed ones, by field name. */
  options: Readonly<Record<string, readonly SelectOption[]>>;
}

/**
 * The modal's fields in their declared order, each bound to the form with its error under it
 * ('Este campo es requerido', or the server's message of that field).
 */
export function CatalogFields<TValues extends FieldValues, TOutput, TRow>({
  fields,
  dialog,
  errors,
  options,
}: CatalogFieldsProps<TValues, TOutput, TRow>) {
  const { register } = dialog.form;
  return fields.map((field, index) => {
    if (typeof field === 'function') return <Fragment key={index}>{field(dialog)}</Fragment>;
    const error = (get(errors, field.name) as { message?: string } | undefined)?.message;
    if ('kind' in field) {
      return (
        <FormSelectField
          key={field.name}
          label={field.label}
          placeholder={field.placeholder}
          options={field.options ?? options[field.name] ?? []}
          error={error}
          registration={register(field.name)}
        />
      );
    }
    return (
      <FormTextField
        key={field.name}
        label={field.label}
        type={field.type}
        placeholder={field.placeholder}
        helperText={field.helperText}
        autoComplete={field.autoComplete}
        error={error}
        registration={register(field.name)}
      />
    );
  });
}
