/** The signed-in user, as the last `POST /api/auth/me` answered it (docs/spec.md section 3, Session). */
import { create } from 'zustand';
import type { MeResponse } from '@concurso/shared';
import { onSessionEnd, watchSignedIn } from '../api/session-end';

/** State and actions of the session store. */
export interface SessionStore {
  /** Null until the session was checked (and after logout). */
  user: MeResponse | null;
  /**
   * True from a session ended without the user asking (see `api/session-end.ts`) until the next
   * sign-in: the login screen shows 'Su sesión terminó. Inicie sesión de nuevo.'.
   */
  ended: boolean;
  /** A checked session: its user; any earlier end is over. */
  setUser: (user: MeResponse) => void;
  /** No user (logout, or the guard found no session); keeps `ended` as it is. */
  clear: () => void;
  /** The session ended elsewhere: no user, and the login screen says so. */
  end: () => void;
}

export const useSessionStore = create<SessionStore>()((set) => ({
  user: null,
  ended: false,
  setUser: (user) => set({ user, ended: false }),
  clear: () => set({ user: null }),
  end: () => set({ user: null, ended: true }),
}));

// The session ended without the user asking (api/session-end.ts): no user, and the login screen says so.
onSessionEnd(() => useSessionStore.getState().end());
watchSignedIn(() => useSessionStore.getState().user !== null);
