import type { RouteReply, RouteSpec } from '@concurso/shared';
import { ApiRequestError } from './api-error';
import { apiHeaders, httpError, parseJson } from './api-client';
import { reportUnauthorized } from './session-end';
import { getToken } from './token-storage';

/** A browser upload progress event (`XMLHttpRequest.upload.onprogress`). */
export interface UploadProgressEvent {
  lengthComputable: boolean;
  loaded: number;
  total: number;
}

/** The part of `XMLHttpRequest` an upload uses; tests pass a fake. */
export interface UploadXhr {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: FormData): void;
  abort(): void;
  readonly status: number;
  readonly responseText: string;
  upload: { onprogress: ((event: UploadProgressEvent) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
}

/** Options of {@link uploadRequest}. */
export interface UploadOptions {
  /** Receives the percentage sent (0..100), or null while the browser cannot tell the total. */
  onProgress?: (percent: number | null) => void;
  /** Aborting it aborts the upload; the promise then rejects with an `AbortError`. */
  signal?: AbortSignal;
  /** Makes the request object; `new XMLHttpRequest()` by default. */
  createXhr?: () => UploadXhr;
}

/** Whole percentage of an upload, 0..100; null when the total is unknown. */
export function uploadPercent(event: UploadProgressEvent): number | null {
  if (!event.lengthComputable || event.total <= 0) return null;
  return Math.max(0, Math.min(100, Math.floor((event.loaded / event.total) * 100)));
}

/** The error an aborted request rejects with, like an aborted `fetch`. */
function abortError(): DOMException {
  return new DOMException('Se canceló la carga del archivo.', 'AbortError');
}

/** True for the rejection of an aborted request (fetch or upload). */
export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

/** A route of the shared map whose body is `multipart/form-data` (an upload). */
export type MultipartRoute = RouteSpec & { multipart: NonNullable<RouteSpec['multipart']> };

/**
 * Sends `body` to a multipart route of the shared map (its method and path, `shared/src/api`) through
 * XMLHttpRequest, because fetch reports no upload progress. Sends the same headers as every API call;
 * resolves with the parsed JSON answer for 200..299, typed by the route's `reply`, and rejects like
 * `apiRequest` otherwise (an {@link ApiRequestError} with the server's message, or `network` without
 * an answer; a 401 ends the session first), or with an `AbortError` when `signal` aborts.
 */
export function uploadRequest<R extends MultipartRoute>(
  route: R,
  body: FormData,
  options: UploadOptions = {},
): Promise<RouteReply<R>> {
  const { onProgress, signal } = options;
  return new Promise<RouteReply<R>>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const xhr = options.createXhr ? options.createXhr() : (new XMLHttpRequest() as UploadXhr);
    const onAbortSignal = () => xhr.abort();
    const finish = () => signal?.removeEventListener('abort', onAbortSignal);

    const sentToken = getToken();
    xhr.open(route.method, route.path);
    // The browser writes the multipart Content-Type with its boundary itself.
    for (const [name, value] of Object.entries(apiHeaders('application/json', sentToken))) {
      xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) => onProgress?.(uploadPercent(event));
    xhr.onload = () => {
      finish();
      const payload = parseJson(xhr.responseText);
      if (xhr.status === 401) reportUnauthorized(sentToken);
      if (xhr.status >= 200 && xhr.status < 300) resolve(payload as RouteReply<R>);
      else reject(httpError(xhr.status, payload));
    };
    xhr.onerror = () => {
      finish();
      reject(new ApiRequestError({ kind: 'network', status: 0 }));
    };
    xhr.onabort = () => {
      finish();
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbortSignal, { once: true });
    onProgress?.(0);
    xhr.send(body);
  });
}
