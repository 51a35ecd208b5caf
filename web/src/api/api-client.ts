import { ApiRequestError } from './api-error';
import { reportUnauthorized } from './session-end';
import { getToken } from './token-storage';

/** Options of one API call. A `FormData` body is sent as multipart; any other body as JSON. */
export interface ApiRequestOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  signal?: AbortSignal;
  /**
   * True for the calls of signing in and out (login, the login's own session check, logout): their 401
   * is about the credentials, so it does not end the session with 'Su sesión terminó'.
   */
  keepSessionOn401?: boolean;
}

/**
 * The headers of every API call (docs/spec.md section 7): the `X-Requested-With: XMLHttpRequest` marker and,
 * with a token (the stored one by default), `Authorization: Bearer <token>`. Shared by fetch calls and
 * the upload's XHR.
 */
export function apiHeaders(accept = 'application/json', token = getToken()): Record<string, string> {
  const headers: Record<string, string> = {
    Accept: accept,
    'X-Requested-With': 'XMLHttpRequest',
  };
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/**
 * Calls the API on the page's own origin (docs/spec.md section 7): every request carries the
 * `X-Requested-With: XMLHttpRequest` marker and, once a token is stored, `Authorization: Bearer <token>`.
 * Resolves with the parsed JSON answer for statuses 200..299; rejects with an {@link ApiRequestError}
 * otherwise. A 401 first ends the tab's session (`session-end.ts`) unless `keepSessionOn401`. An aborted
 * call rejects with the browser's own `AbortError`, untouched.
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const sentToken = getToken();
  const headers = apiHeaders('application/json', sentToken);

  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    // The browser writes the multipart boundary itself.
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  // No Content-Type without a body: Fastify refuses an empty body declared as JSON.

  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: options.signal,
      credentials: 'same-origin',
    });
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw new ApiRequestError({ kind: 'network', status: 0, cause });
  }

  const payload = parseJson(await response.text().catch(() => ''));
  if (response.status === 401 && !options.keepSessionOn401) reportUnauthorized(sentToken);
  if (!response.ok) throw httpError(response.status, payload);
  return payload as T;
}

/** The parsed JSON of an answer's text; null when empty or not JSON. */
export function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A proxy error page or a plain-text answer: there is no server message to show.
    return null;
  }
}

/** The error of an answer outside 200..299, with the server's message and field errors when it sent them. */
export function httpError(status: number, payload: unknown): ApiRequestError {
  return new ApiRequestError({
    kind: 'http',
    status,
    serverMessage: pickMessage(payload),
    fieldErrors: pickFieldErrors(payload),
    body: payload,
  });
}

function pickMessage(payload: unknown): string | null {
  if (payload && typeof payload === 'object' && 'message' in payload) {
    const { message } = payload as { message: unknown };
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return null;
}

function pickFieldErrors(payload: unknown): Record<string, string[]> | null {
  if (payload && typeof payload === 'object' && 'errors' in payload) {
    const { errors } = payload as { errors: unknown };
    if (errors && typeof errors === 'object') return errors as Record<string, string[]>;
  }
  return null;
}
