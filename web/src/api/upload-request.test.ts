import { afterEach, describe, expect, it, vi } from 'vitest';
import { exercisesRoutes } from '@concurso/shared';
import { ApiRequestError } from './api-error';
import { onSessionEnd } from './session-end';
import { isAbortError, uploadPercent, uploadRequest, type UploadXhr } from './upload-request';

/** A fake XMLHttpRequest the test drives: it records what was sent and plays the server. */
class FakeXhr implements UploadXhr {
  status = 0;
  responseText = '';
  method = '';
  url = '';
  headers: Record<string, string> = {};
  sent: FormData | null = null;
  aborted = false;
  upload: UploadXhr['upload'] = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.sent = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number, lengthComputable = true) {
    this.upload.onprogress?.({ loaded, total, lengthComputable });
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = body === undefined ? '' : JSON.stringify(body);
    this.onload?.();
  }
}

function start(options: { signal?: AbortSignal } = {}) {
  const xhr = new FakeXhr();
  const percents: Array<number | null> = [];
  const form = new FormData();
  form.append('levels_id', '2');
  const promise = uploadRequest(exercisesRoutes.create, form, {
    createXhr: () => xhr,
    onProgress: (percent) => percents.push(percent),
    signal: options.signal,
  });
  return { xhr, percents, promise, form };
}

afterEach(() => vi.unstubAllGlobals());

describe('uploadPercent', () => {
  it('answers whole percentages, and null while the total is unknown', () => {
    expect(uploadPercent({ lengthComputable: true, loaded: 0, total: 200 })).toBe(0);
    expect(uploadPercent({ lengthComputable: true, loaded: 133, total: 200 })).toBe(66);
    expect(uploadPercent({ lengthComputable: true, loaded: 200, total: 200 })).toBe(100);
    expect(uploadPercent({ lengthComputable: false, loaded: 10, total: 0 })).toBeNull();
  });
});

describe('uploadRequest', () => {
  it('posts the form with the API headers and reports the progress', async () => {
    vi.stubGlobal('localStorage', { getItem: () => 'jwt-123' });
    const { xhr, percents, promise, form } = start();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/createExercise');
    expect(xhr.sent).toBe(form);
    expect(xhr.headers).toMatchObject({
      'X-Requested-With': 'XMLHttpRequest',
      Authorization: 'Bearer jwt-123',
    });
    // The browser writes the multipart Content-Type and its boundary.
    expect(xhr.headers['Content-Type']).toBeUndefined();

    xhr.progress(50, 200);
    xhr.progress(200, 200);
    xhr.answer(200, { success: true, message: 'Registrado' });
    await expect(promise).resolves.toEqual({ success: true, message: 'Registrado' });
    expect(percents).toEqual([0, 25, 100]);
  });

  it('rejects a refusal with the server message (413, 415)', async () => {
    const { xhr, promise } = start();
    xhr.answer(413, { success: false, message: 'El archivo supera el límite de 20 MB.' });
    const error = await promise.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({
      kind: 'http',
      status: 413,
      serverMessage: 'El archivo supera el límite de 20 MB.',
    });
  });

  it('ends the session on a 401 before rejecting', async () => {
    const storage = new Map([['token', 'jwt-123']]);
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => storage.get(key) ?? null,
      removeItem: (key: string) => void storage.delete(key),
    });
    const ended = vi.fn();
    const off = onSessionEnd(ended);
    try {
      const { xhr, promise } = start();
      xhr.answer(401, { success: false, message: 'Sesión no válida o expirada. Inicie sesión de nuevo.' });
      await expect(promise).rejects.toMatchObject({ status: 401 });
      expect(ended).toHaveBeenCalledWith('unauthorized');
      expect(storage.has('token')).toBe(false);
    } finally {
      off();
    }
  });

  it('rejects without an answer as a network error', async () => {
    const { xhr, promise } = start();
    xhr.onerror?.();
    await expect(promise).rejects.toMatchObject({ kind: 'network', status: 0 });
  });

  it('aborts the request when the signal aborts ("Cancelar") and rejects with an AbortError', async () => {
    const controller = new AbortController();
    const { xhr, promise } = start({ signal: controller.signal });
    xhr.progress(10, 100);
    controller.abort();
    expect(xhr.aborted).toBe(true);
    const error = await promise.catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
  });

  it('sends nothing when the signal was already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { xhr, promise } = start({ signal: controller.signal });
    await expect(promise).rejects.toMatchObject({ name: 'AbortError' });
    expect(xhr.sent).toBeNull();
  });
});
