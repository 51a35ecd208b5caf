/**
 * How a failed save or delete of a catalogue row is told to the user (SPEC.md sections 5 and 8). Pure:
 * the hooks show what these return.
 */
import { MESSAGES, saveFailedMessage } from '@concurso/shared';
import { isApiRequestError } from '../api/api-error';
import type { ListCatalog } from '../api/catalog-api';
import { INVALID_FORM_MESSAGE, type MessageView } from '../stores/feedback-store';

/** Create or edit. */
export type FormMode = 'create' | 'update';

/** The thing each catalogue saves, with its article, for the generic failure text. */
const THINGS: Record<ListCatalog, string> = {
  contests: 'el concurso',
  levels: 'el nivel',
  schools: 'la escuela',
  departaments: 'el departamento',
  careers: 'la carrera',
  coaches: 'el coach',
  processes: 'el proceso',
};

/**
 * The failure text of a save (SPEC.md section 8): schools and processes have their own wording; the
 * rest use 'Hubo un problema al registrar/actualizar el {thing}. Intente de nuevo.'.
 */
export function saveFailureText(catalog: ListCatalog, mode: FormMode): string {
  if (catalog === 'schools')
    return mode === 'create' ? MESSAGES.schoolCreateFailed : MESSAGES.schoolUpdateFailed;
  if (catalog === 'processes') {
    return mode === 'create' ? MESSAGES.processCreateFailed : MESSAGES.processUpdateFailed;
  }
  return saveFailedMessage(mode, THINGS[catalog]);
}

/** What to show after a failed save: messages under fields, and a dialog. */
export interface SaveFailureView {
  /** The first server message of each field the form has. */
  fieldErrors: Record<string, string>;
  message: MessageView;
}

/**
 * A failed save: a 422 puts the server's messages under the fields (and warns 'Información' /
 * 'Por favor llene todos los campos correctamente', or the message of a field the form does not show);
 * a 409 (a duplicate) shows the server's own text; anything else the SPEC.md failure text.
 */
export function describeSaveFailure(
  error: unknown,
  failureText: string,
  formFields: readonly string[],
): SaveFailureView {
  if (isApiRequestError(error) && error.status === 422) {
    const fieldErrors: Record<string, string> = {};
    let otherMessage: string | null = null;
    for (const [field, messages] of Object.entries(error.fieldErrors ?? {})) {
      const [first] = messages;
      if (!first) continue;
      if (formFields.includes(field)) fieldErrors[field] ??= first;
      else otherMessage ??= first;
    }
    const message = otherMessage ?? (Object.keys(fieldErrors).length > 0 ? null : error.serverMessage);
    return {
      fieldErrors,
      message: message ? { ...INVALID_FORM_MESSAGE, message } : INVALID_FORM_MESSAGE,
    };
  }
  if (isApiRequestError(error) && error.status === 409 && error.serverMessage) {
    return { fieldErrors: {}, message: { title: MESSAGES.error, message: error.serverMessage } };
  }
  return { fieldErrors: {}, message: { title: MESSAGES.error, message: failureText } };
}

/**
 * A failed delete: the server's reason when it gave one (409 'in use' names what uses the row, 404 the
 * row is gone), else 'Ocurrió un problema al eliminar el dato. Inténtalo de nuevo.'.
 */
export function describeDeleteFailure(error: unknown): MessageView {
  const reason =
    isApiRequestError(error) && error.kind === 'http' && error.status >= 400 && error.status < 500
      ? error.serverMessage
      : null;
  return { title: MESSAGES.error, message: reason ?? MESSAGES.deleteFailed };
}
