import { ApiRequestError } from './api-error';
import { getToken } from './token-storage';

/** Options of one API call. A `FormData` body is sent as multipart; any other body as JSON. */
export interface ApiRequestOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * Calls the API on the page's own origin (SPEC.md section 7): every request carries the
 * `X-Requested-With: XMLHttpRequest` marker and, once a token is stored, `Authorization: Bearer <token>`.
 * Resolves with the parsed JSON answer for statuses 200..299; rejects with an {@link ApiRequestError}
 * otherwise. An aborted call rejects with the browser's own `AbortError`, untouched.
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
  };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;

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

  const payload = await readJson(response);
  if (!response.ok) {
    throw new ApiRequestError({
      kind: 'http',
      status: response.status,
      serverMessage: pickMessage(payload),
      fieldErrors: pickFieldErrors(payload),
      body: payload,
    });
  }
  return payload as T;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A proxy error page or a plain-text answer: there is no server message to show.
    return null;
  }
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
