import type { FormEvent } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { INVALID_FORM_MESSAGE, useFeedbackStore } from '../stores/feedback-store';
import type { SaveFailureView } from './catalog-failures';

/**
 * The submit of a modal form: valid values go to `onValid`; an invalid form also warns 'Información' /
 * 'Por favor llene todos los campos correctamente' besides the messages under its fields (docs/spec.md
 * section 5).
 */
export function submitOrWarn<TValues extends FieldValues, TOutput>(
  form: UseFormReturn<TValues, unknown, TOutput>,
  onValid: (values: TOutput) => Promise<void>,
): (event?: FormEvent<HTMLFormElement>) => Promise<void> {
  return form.handleSubmit(onValid, () => useFeedbackStore.getState().showMessage(INVALID_FORM_MESSAGE));
}

/** Shows a failed save (`describeSaveFailure`): each server message under its field, then the dialog. */
export function showSaveFailure<TValues extends FieldValues, TOutput>(
  form: UseFormReturn<TValues, unknown, TOutput>,
  view: SaveFailureView,
): void {
  for (const [field, message] of Object.entries(view.fieldErrors)) {
    form.setError(field as Path<TValues>, { type: 'server', message });
  }
  if (view.message) useFeedbackStore.getState().showMessage(view.message);
}
