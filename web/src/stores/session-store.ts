/** The signed-in user, as the last `POST /api/auth/me` answered it (SPEC.md section 3, Session). */
import { create } from 'zustand';
import type { MeResponse } from '@concurso/shared';

/** State and actions of the session store. */
export interface SessionStore {
  /** Null until the session was checked (and after logout). */
  user: MeResponse | null;
  setUser: (user: MeResponse) => void;
  clear: () => void;
}

export const useSessionStore = create<SessionStore>()((set) => ({
  user: null,
  setUser: (user) => set({ user }),
  clear: () => set({ user: null }),
}));
