import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { fetchMe } from '../api/auth-api';
import { isApiRequestError } from '../api/api-error';
import { onSessionEnd } from '../api/session-end';
import { clearToken, getToken } from '../api/token-storage';
import { JUDGE_HOME_PATH, LOGIN_PATH, isJudge } from './paths';
import { isAdminOnlyPath } from './route-table';
import { useSessionStore } from '../stores/session-store';
import { FullPageSpinner } from '../ui/layout/full-page-spinner';

/**
 * The route guard of docs/spec.md section 2, run on every navigation:
 * - no token: any path but / goes to /;
 * - token: `POST /api/auth/me` with it; `bool` false (path not /) goes to /; a failed call is logged
 *   and goes to /; otherwise navigation continues.
 * Plus docs/design.md section 5: a judge opening an admin-only path goes to /homeJuez; and a
 * session that ends while a screen is open (`api/session-end.ts`) goes to /, where the login screen
 * says 'Su sesión terminó. Inicie sesión de nuevo.'.
 * The first check of a session blocks the screen; later ones run while the screen stays visible.
 */
export function RouteGuard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const user = useSessionStore((state) => state.user);
  const path = location.pathname;
  const navigationKey = location.key;
  const token = getToken();

  useEffect(() => onSessionEnd(() => navigate(LOGIN_PATH, { replace: true })), [navigate]);

  useEffect(() => {
    const session = useSessionStore.getState();
    if (!getToken()) {
      session.clear();
      return;
    }
    const controller = new AbortController();
    let current = true;
    fetchMe(controller.signal)
      .then((me) => {
        if (!current) return;
        if (me.bool === false) {
          session.clear();
          if (path !== LOGIN_PATH) navigate(LOGIN_PATH, { replace: true });
          return;
        }
        session.setUser(me);
      })
      .catch((error: unknown) => {
        if (!current) return;
        console.error('No se pudo verificar la sesión', error);
        // A rejected token is useless; a network failure keeps it for the next try.
        if (isApiRequestError(error) && error.status === 401) clearToken();
        session.clear();
        if (path !== LOGIN_PATH) navigate(LOGIN_PATH, { replace: true });
      });
    return () => {
      current = false;
      controller.abort();
    };
  }, [navigationKey, path, navigate]);

  if (path === LOGIN_PATH) return children;
  if (!token) return <Navigate to={LOGIN_PATH} replace />;
  if (!user) return <FullPageSpinner label="Verificando sesión…" />;
  if (isJudge(user.types_users_id) && isAdminOnlyPath(path)) return <Navigate to={JUDGE_HOME_PATH} replace />;
  return children;
}
