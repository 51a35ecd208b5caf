/**
 * How a list answer is read and a failed list load told to the user (docs/spec.md section 8). Pure: free of
 * React, TanStack Query and sockets.
 */
import { MESSAGES } from '@concurso/shared';
import { isApiRequestError } from '../api-error';

/** A list answer with `success: false`: the server's warning ('Advertencia'). */
export class ListWarning extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListWarning';
  }
}

/**
 * The shape every list answer shares (docs/spec.md section 7). The map declares `success: true`; docs/spec.md
 * section 8 still has the web tell a `success: false` answer as a warning, so it is read as a boolean.
 */
export interface ListEnvelope<T> {
  success: boolean;
  data: readonly T[];
  message: string;
}

/** The rows of a list answer; one with `success: false` throws a {@link ListWarning} with its message. */
export function listRows<T>(answer: ListEnvelope<T>): T[] {
  if (answer.success === false) throw new ListWarning(answer.message);
  return Array.isArray(answer.data) ? [...answer.data] : [];
}

/** The dialog for a failed list load. */
export interface ListErrorView {
  title: string;
  message: string;
}

/**
 * docs/spec.md section 8, list loads: `success` false is 'Advertencia' with the server's message; an HTTP
 * error is 'Error' with the server's message or 'Algo salió mal en el servidor.'; no answer is
 * 'Error de Conexión' with 'No se pudo conectar al servidor. Inténtalo de nuevo más tarde.'.
 */
export function describeListError(error: unknown): ListErrorView {
  if (error instanceof ListWarning) {
    return { title: MESSAGES.warning, message: error.message || MESSAGES.serverError };
  }
  if (isApiRequestError(error) && error.kind === 'network') {
    return { title: MESSAGES.connectionErrorTitle, message: MESSAGES.connectionError };
  }
  if (isApiRequestError(error)) {
    return { title: MESSAGES.error, message: error.serverMessage ?? MESSAGES.serverError };
  }
  return { title: MESSAGES.error, message: MESSAGES.serverError };
}
