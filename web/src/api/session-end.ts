/**
 * The one place a tab's session ends without the user asking: a 401 answer to a call made
 * with the session, the server's `session.ended` push, or a reconnect the server refused as
 * 'unauthorized' (logout in another tab, password or role changed, user deleted, token expired).
 * Ending forgets the token and runs what the rest of the app registered: mark the session store so
 * the login screen shows `MESSAGES.sessionEnded` (registered first, when the store loads), stop the
 * board store, clear the query cache, close the live socket, go to /. Modules register themselves
 * when they load, so this one imports none of them (no store either: `api/` never imports `stores/`,
 * a lint rule) and the login bundle stays free of the socket client.
 */
import type { SessionEndReason } from '@concurso/shared';
import { clearToken, getToken } from './token-storage';

/** Why the session ended: the server's `session.ended` reason, or `unauthorized` (a 401 or a refused reconnect). */
export type SessionEndCause = SessionEndReason | 'unauthorized';

/** Work to do when the session ends. */
export type SessionEndListener = (cause: SessionEndCause) => void;

const listeners = new Set<SessionEndListener>();

/** Whether the tab shows a signed-in user; the session store tells (`watchSignedIn`). */
let signedIn: () => boolean = () => false;

/** How to know whether the tab shows a signed-in user (stores/session-store.ts calls it when it loads). */
export function watchSignedIn(read: () => boolean): void {
  signedIn = read;
}

/** Registers `listener` to run on every session end; returns the function that removes it. */
export function onSessionEnd(listener: SessionEndListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** What {@link unauthorizedEndsSession} weighs about one 401 answer. */
export interface UnauthorizedAnswer {
  /** The token the call was sent with (null: none was stored when it left). */
  sentToken: string | null;
  /** The token stored now, when the answer arrives. */
  currentToken: string | null;
  /** True while the tab shows a signed-in user. */
  signedIn: boolean;
}

/**
 * Whether a 401 answer ends the tab's session: only when the tab had one for that call (a token was
 * sent, or a user is signed in: another tab may have removed the shared token already), and no other
 * session was started since the call left (a newer token is stored: the answer is about an old one).
 */
export function unauthorizedEndsSession({ sentToken, currentToken, signedIn }: UnauthorizedAnswer): boolean {
  if (sentToken !== currentToken) return false;
  return sentToken !== null || signedIn;
}

/**
 * Ends the tab's session for `cause`. `endedToken` is the token that stopped working: it is removed
 * from storage only if it is still the stored one, so a newer sign-in in another tab survives.
 * Safe to call more than once; every listener runs even if one throws.
 */
export function endSession(cause: SessionEndCause, endedToken: string | null): void {
  if (endedToken !== null && getToken() === endedToken) clearToken();
  for (const listener of [...listeners]) {
    try {
      listener(cause);
    } catch (error) {
      console.error('Error al cerrar la sesión terminada', error);
    }
  }
}

/**
 * Called by the API clients with every 401 answer (not the login and logout calls', whose 401 is about
 * the credentials): ends the session when {@link unauthorizedEndsSession} says the answer means it.
 */
export function reportUnauthorized(sentToken: string | null): void {
  const answer: UnauthorizedAnswer = {
    sentToken,
    currentToken: getToken(),
    signedIn: signedIn(),
  };
  if (unauthorizedEndsSession(answer)) endSession('unauthorized', sentToken);
}
