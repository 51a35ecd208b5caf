/**
 * How a failed save or delete of a catalogue row is told to the user (docs/spec.md sections 5 and 8). Pure:
 * the hooks show what these return.
 */
import { MESSAGES, saveFailedMessage } from '@concurso/shared';
import { isApiRequestError } from '../api/api-error';
import type { ListCatalog } from '../api/catalog-api';
import { isAbortError } from '../api/upload-request';
import { INVALID_FORM_MESSAGE, type MessageView } from '../stores/feedback-store';

/** Create or edit. */
export type FormMode = 'create' | 'update';

/** The thing each catalogue saves, with its article, for the generic failure text. */
const THINGS: Record<ListCatalog, string> = {
  contests: 'el concurso',
  exercises: 'el ejercicio',
  levels: 'el nivel',
  schools: 'la escuela',
  departaments: 'el departamento',
  careers: 'la carrera',
  coaches: 'el coach',
  teams: 'el equipo',
  processes: 'el proceso',
  adminUsers: 'el usuario',
  judgeUsers: 'el usuario',
  participantUsers: 'el usuario',
};

/**
 * The failure text of a save (docs/spec.md section 8): schools, processes, users and exercise updates have
 * their own wording; a team's or an exercise's creation failure is only logged (null: no dialog); the
 * rest use 'Hubo un problema al registrar/actualizar el {thing}. Intente de nuevo.'.
 */
export function saveFailureText(catalog: ListCatalog, mode: FormMode): string | null {
  const creating = mode === 'create';
  switch (catalog) {
    case 'schools':
      return creating ? MESSAGES.schoolCreateFailed : MESSAGES.schoolUpdateFailed;
    case 'processes':
      return creating ? MESSAGES.processCreateFailed : MESSAGES.processUpdateFailed;
    case 'adminUsers':
    case 'judgeUsers':
    case 'participantUsers':
      return creating ? MESSAGES.userCreateFailed : MESSAGES.userUpdateFailed;
    case 'exercises':
      return creating ? null : MESSAGES.exerciseUpdateFailed;
    case 'teams':
      return creating ? null : saveFailedMessage(mode, THINGS.teams);
    default:
      return saveFailedMessage(mode, THINGS[catalog]);
  }
}

/** What to show after a failed save: messages under fields, and a dialog (none when null). */
export interface SaveFailureView {
  /** The first server message of each field the form has. */
  fieldErrors: Record<string, string>;
  message: MessageView | null;
}

/**
 * Refusals whose server text says what to fix better than the generic failure text: 404 (the row is
 * gone), 409 (a duplicate, a code in another team, the last administrator), 413 (file too large) and
 * 415 (not a PDF).
 */
const TOLD_STATUSES: ReadonlySet<number> = new Set([404, 409, 413, 415]);

/**
 * A failed save: a 422 puts the server's messages under the fields (and warns 'Información' /
 * 'Por favor llene todos los campos correctamente', or the message of a field the form does not show);
 * a 404, 409, 413 or 415 shows the server's own text; a cancelled upload shows nothing; anything else
 * the docs/spec.md failure text (nothing when it is null: the failure is only logged).
 * `toFormField` maps a server field name to the form's (the members' `0.code` is `members.0.code`).
 */
export function describeSaveFailure(
  error: unknown,
  failureText: string | null,
  formFields: readonly string[],
  toFormField: (serverField: string) => string = (field) => field,
): SaveFailureView {
  if (isAbortError(error)) return { fieldErrors: {}, message: null };
  if (isApiRequestError(error) && error.status === 422) {
    const fieldErrors: Record<string, string> = {};
    let otherMessage: string | null = null;
    for (const [serverField, messages] of Object.entries(error.fieldErrors ?? {})) {
      const [first] = messages;
      if (!first) continue;
      const field = toFormField(serverField);
      if (formFields.includes(field)) fieldErrors[field] ??= first;
      else otherMessage ??= first;
    }
    const message = otherMessage ?? (Object.keys(fieldErrors).length > 0 ? null : error.serverMessage);
    return {
      fieldErrors,
      message: message ? { ...INVALID_FORM_MESSAGE, message } : INVALID_FORM_MESSAGE,
    };
  }
  if (isApiRequestError(error) && TOLD_STATUSES.has(error.status) && error.serverMessage) {
    return { fieldErrors: {}, message: { title: MESSAGES.error, message: error.serverMessage } };
  }
  return {
    fieldErrors: {},
    message: failureText === null ? null : { title: MESSAGES.error, message: failureText },
  };
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
