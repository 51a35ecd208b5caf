import { MESSAGES, type ImportError } from '@concurso/shared';

/**
 * What an error answers in `errors`: each field's messages (docs/design.md section 4), or, for a refused
 * registration file (the bulk import), each bad row's line and message.
 */
export type ErrorDetails = Record<string, string[]> | readonly ImportError[];

/**
 * An error with an HTTP status and a Spanish message for the user; the error handler answers it
 * as `{ success: false, message, errors? }` (docs/design.md section 4).
 */
export class HttpError extends Error {
  /**
   * @param retryAfterS with a 429 or 503: the `Retry-After` header to answer, in seconds (RFC 9110
   *   section 10.2.3), so a well-behaved client waits instead of retrying at once.
   */
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly errors?: ErrorDetails,
    public readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * The 422 of docs/design.md section 4 for field errors found beyond the route's schema (a reference that
 * does not exist, a multipart field): 'Por favor llene todos los campos correctamente' with each
 * field's messages.
 */
export function validationError(errors: Record<string, string[]>): HttpError {
  return new HttpError(422, MESSAGES.validation, errors);
}

/** {@link validationError} with one message on one field: `fieldError('levels_id', 'El nivel ... no existe.')`. */
export function fieldError(field: string, message: string): HttpError {
  return validationError({ [field]: [message] });
}
