/**
 * Where the session token lives: local storage under the key `token` (docs/spec.md section 2).
 * Reads never throw, so code that also runs under Node (unit tests) or with storage disabled keeps working.
 */
const TOKEN_STORAGE_KEY = 'token';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Some browsers throw on access when storage is blocked.
    return null;
  }
}

/** The stored session token, or null when there is none. */
export function getToken(): string | null {
  return storage()?.getItem(TOKEN_STORAGE_KEY) ?? null;
}

/** Stores the session token returned by the login call. */
export function setToken(token: string): void {
  storage()?.setItem(TOKEN_STORAGE_KEY, token);
}

/** Forgets the session token (logout, rejected session). */
export function clearToken(): void {
  storage()?.removeItem(TOKEN_STORAGE_KEY);
}
