import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@concurso/shared';
import { useSessionStore } from '../stores/session-store';
import { apiRequest } from './api-client';
import { ApiRequestError, describeError } from './api-error';
import { login, logout } from './auth-api';
import { onSessionEnd } from './session-end';

/** A minimal localStorage for Node, where the client reads the token. */
function stubStorage(initial: Record<string, string>): void {
  const data = new Map(Object.entries(initial));
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  });
}

function stubFetch(response: Response | Error) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => {
    if (response instanceof Error) throw response;
    return response;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.setState({ user: null, ended: false });
});

const JUDGE = { id: 2, name: 'Juez Uno', username: 'juez_uno', types_users_id: 2, bool: true };
const unauthorized = () => json(401, { success: false, message: MESSAGES.unauthorized });

/** Records session ends while `run` runs. */
async function sessionEndsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const causes: string[] = [];
  const off = onSessionEnd((cause) => causes.push(cause));
  try {
    await run().catch(() => undefined);
  } finally {
    off();
  }
  return causes;
}

describe('apiRequest', () => {
  it('sends the XMLHttpRequest marker, the bearer token and a JSON body', async () => {
    stubStorage({ token: 'abc.def' });
    const fetchMock = stubFetch(json(200, { ok: 1 }));

    await expect(apiRequest('/api/auth/login', { method: 'POST', body: { username: 'a' } })).resolves.toEqual(
      {
        ok: 1,
      },
    );
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    const headers = init?.headers as Record<string, string>;
    expect(url).toBe('/api/auth/login');
    expect(init?.method).toBe('POST');
    expect(headers['X-Requested-With']).toBe('XMLHttpRequest');
    expect(headers.Authorization).toBe('Bearer abc.def');
    expect(headers['Content-Type']).toBe('application/json');
    expect(init?.body).toBe('{"username":"a"}');
  });

  it('sends no Authorization without a token and no Content-Type without a body', async () => {
    stubStorage({});
    const fetchMock = stubFetch(json(200, {}));
    await apiRequest('/api/auth/me', { method: 'POST' });
    const headers = fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string>;
    expect(headers.Authorization).toBeUndefined();
    expect(headers['Content-Type']).toBeUndefined();
    expect(headers['X-Requested-With']).toBe('XMLHttpRequest');
  });

  it('turns an HTTP error into an ApiRequestError with status, message and field errors', async () => {
    stubStorage({});
    stubFetch(
      json(422, {
        success: false,
        message: 'Datos inválidos',
        errors: { username: ['Este campo es requerido'] },
      }),
    );
    const error = await apiRequest('/api/auth/login', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    const apiError = error as ApiRequestError;
    expect(apiError.kind).toBe('http');
    expect(apiError.status).toBe(422);
    expect(apiError.serverMessage).toBe('Datos inválidos');
    expect(apiError.fieldErrors).toEqual({ username: ['Este campo es requerido'] });
    expect(describeError(apiError)).toBe('Datos inválidos');
  });

  it('keeps an HTTP error without a JSON body distinguishable from a network failure', async () => {
    stubStorage({});
    stubFetch(new Response('<html>Bad Gateway</html>', { status: 502 }));
    const error = (await apiRequest('/api/teamAttempts').catch((e: unknown) => e)) as ApiRequestError;
    expect(error.kind).toBe('http');
    expect(error.status).toBe(502);
    expect(error.serverMessage).toBeNull();
    expect(describeError(error)).toBe(MESSAGES.serverError);
  });

  it('reports "no response" as a network error with status 0', async () => {
    stubStorage({});
    stubFetch(new TypeError('Failed to fetch'));
    const error = (await apiRequest('/api/teamAttempts').catch((e: unknown) => e)) as ApiRequestError;
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error.kind).toBe('network');
    expect(error.status).toBe(0);
    expect(describeError(error)).toBe(MESSAGES.connectionError);
  });
});

describe('a 401 answer', () => {
  it('ends the session of the token it was sent with, and still rejects for the caller', async () => {
    stubStorage({ token: 'abc.def' });
    stubFetch(unauthorized());
    let error: unknown;
    const causes = await sessionEndsDuring(async () => {
      error = await apiRequest('/api/descalificarTeam/3').catch((e: unknown) => e);
    });
    expect(causes).toEqual(['unauthorized']);
    expect(localStorage.getItem('token')).toBeNull();
    expect(useSessionStore.getState().ended).toBe(true);
    expect((error as ApiRequestError).status).toBe(401);
  });

  it('ends a signed-in tab whose token another tab removed at its logout', async () => {
    stubStorage({});
    useSessionStore.getState().setUser(JUDGE);
    stubFetch(unauthorized());
    expect(await sessionEndsDuring(() => apiRequest('/api/descalificarTeam/3'))).toEqual(['unauthorized']);
    expect(useSessionStore.getState()).toMatchObject({ user: null, ended: true });
  });

  it("does not for the login's own 401 (wrong password) nor for logout", async () => {
    stubStorage({ token: 'old.token' });
    useSessionStore.getState().setUser(JUDGE);
    stubFetch(json(401, { success: false, message: MESSAGES.loginInvalid }));
    expect(await sessionEndsDuring(() => login({ username: 'juez_uno', password: 'x' }))).toEqual([]);
    stubFetch(unauthorized());
    expect(await sessionEndsDuring(() => logout())).toEqual([]);
    expect(localStorage.getItem('token')).toBe('old.token');
    expect(useSessionStore.getState().ended).toBe(false);
  });

  it('does not for other statuses, nor without a session', async () => {
    stubStorage({ token: 'abc.def' });
    stubFetch(json(403, { success: false, message: 'No autorizado' }));
    expect(
      await sessionEndsDuring(() => apiRequest('/api/createUser', { method: 'POST', body: {} })),
    ).toEqual([]);
    stubStorage({});
    stubFetch(unauthorized());
    expect(await sessionEndsDuring(() => apiRequest('/api/teamAttempts'))).toEqual([]);
  });
});
