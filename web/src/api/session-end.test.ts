import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../stores/session-store';
import { endSession, onSessionEnd, reportUnauthorized, unauthorizedEndsSession } from './session-end';

const USER = { id: 1, name: 'Ana Ruiz', username: 'ana', types_users_id: 1, bool: true };
let storage: Map<string, string>;

beforeEach(() => {
  storage = new Map();
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => void storage.set(key, value),
    removeItem: (key: string) => void storage.delete(key),
  });
  useSessionStore.setState({ user: null, ended: false });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('unauthorizedEndsSession', () => {
  it('ends a session whose token was sent and is still the stored one', () => {
    expect(unauthorizedEndsSession({ sentToken: 't1', currentToken: 't1', signedIn: true })).toBe(true);
    // The guard's first check: no user yet, but the token was sent.
    expect(unauthorizedEndsSession({ sentToken: 't1', currentToken: 't1', signedIn: false })).toBe(true);
  });

  it('ends a signed-in tab whose shared token another tab removed (logout there)', () => {
    expect(unauthorizedEndsSession({ sentToken: null, currentToken: null, signedIn: true })).toBe(true);
  });

  it('leaves a tab without a session, and a newer session, alone', () => {
    expect(unauthorizedEndsSession({ sentToken: null, currentToken: null, signedIn: false })).toBe(false);
    // Signed in again (another tab or this one) while the call was on its way.
    expect(unauthorizedEndsSession({ sentToken: 't1', currentToken: 't2', signedIn: true })).toBe(false);
    expect(unauthorizedEndsSession({ sentToken: 't1', currentToken: null, signedIn: false })).toBe(false);
  });
});

describe('endSession', () => {
  it('forgets the token, marks the login notice and runs every listener, even after one throws', () => {
    storage.set('token', 't1');
    useSessionStore.getState().setUser(USER);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const seen: string[] = [];
    const offFailing = onSessionEnd(() => {
      throw new Error('boom');
    });
    const offSeen = onSessionEnd((cause) => seen.push(cause));
    try {
      endSession('logout', 't1');
    } finally {
      offFailing();
      offSeen();
    }
    expect(storage.has('token')).toBe(false);
    expect(useSessionStore.getState()).toMatchObject({ user: null, ended: true });
    expect(seen).toEqual(['logout']);

    endSession('expired', 't1');
    expect(seen).toEqual(['logout']); // removed listeners do not run
  });

  it('keeps a newer token another tab stored meanwhile', () => {
    storage.set('token', 't2');
    endSession('unauthorized', 't1');
    expect(storage.get('token')).toBe('t2');
    expect(useSessionStore.getState().ended).toBe(true);
  });

  it('is cleared by the next sign-in', () => {
    endSession('password', null);
    useSessionStore.getState().clear();
    expect(useSessionStore.getState().ended).toBe(true);
    useSessionStore.getState().setUser(USER);
    expect(useSessionStore.getState().ended).toBe(false);
  });
});

describe('reportUnauthorized', () => {
  it('ends the session only when the answer means it', () => {
    const ended = vi.fn();
    const off = onSessionEnd(ended);
    try {
      reportUnauthorized(null); // no session in this tab
      expect(ended).not.toHaveBeenCalled();

      storage.set('token', 't1');
      useSessionStore.getState().setUser(USER);
      reportUnauthorized('t1');
      expect(ended).toHaveBeenCalledWith('unauthorized');
      expect(storage.has('token')).toBe(false);

      // A second 401 of the same burst finds no session left.
      reportUnauthorized('t1');
      expect(ended).toHaveBeenCalledTimes(1);
    } finally {
      off();
    }
  });
});
