import { MESSAGES } from '@concurso/shared';

/**
 * `network`: the server never answered (offline, refused, proxy down).
 * `http`: the server answered with a status outside 200..299.
 */
export type ApiErrorKind = 'network' | 'http';

/** What went wrong with one API call: how it failed, the HTTP status and the server's own message. */
export class ApiRequestError extends Error {
  readonly kind: ApiErrorKind;
  /** HTTP status; 0 when there was no response. */
  readonly status: number;
  /** The server's `message` field, when it sent one. */
  readonly serverMessage: string | null;
  /** The server's per-field validation messages (422), when it sent them. */
  readonly fieldErrors: Record<string, string[]> | null;
  /** The parsed answer body (null when empty or not JSON). */
  readonly body: unknown;

  constructor(init: {
    kind: ApiErrorKind;
    status: number;
    serverMessage?: string | null;
    fieldErrors?: Record<string, string[]> | null;
    body?: unknown;
    cause?: unknown;
  }) {
    super(
      init.serverMessage ??
        (init.kind === 'network' ? MESSAGES.connectionError : `${MESSAGES.error} HTTP ${init.status}`),
      { cause: init.cause },
    );
    this.name = 'ApiRequestError';
    this.kind = init.kind;
    this.status = init.status;
    this.serverMessage = init.serverMessage ?? null;
    this.fieldErrors = init.fieldErrors ?? null;
    this.body = init.body ?? null;
  }
}

/** Narrows an unknown thrown value to an API error. */
export function isApiRequestError(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError;
}

/**
 * A Spanish text to show for any failure: the server's message, else the generic texts of
 * docs/spec.md section 8 ('Algo salió mal en el servidor.' / 'No se pudo conectar al servidor...').
 */
export function describeError(error: unknown): string {
  if (isApiRequestError(error)) {
    if (error.serverMessage) return error.serverMessage;
    return error.kind === 'network' ? MESSAGES.connectionError : MESSAGES.serverError;
  }
  return MESSAGES.serverError;
}
