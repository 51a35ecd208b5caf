import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { logout } from '../../api/auth-api';
import { clearToken } from '../../api/token-storage';
import { LOGIN_PATH } from '../../app/paths';
import { useFeedbackStore } from '../../stores/feedback-store';
import { useSessionStore } from '../../stores/session-store';

/**
 * Returns the 'Cerrar Sesión' action: closes the tab's live socket (board and catalogue lists), forgets
 * the server state read with the session (`queryClient.clear()`: loads still on their way are
 * cancelled), revokes the token on the server (a failure is only logged: the local session ends
 * anyway), forgets it and goes to /.
 */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    // Loaded lazily, like the board itself, so the login bundle does not carry the socket client.
    const [{ useBoardStore }, { closeLiveSocket }] = await Promise.all([
      import('../../stores/board-store'),
      import('../../api/live-socket'),
    ]);
    useBoardStore.getState().stop();
    queryClient.clear();
    useFeedbackStore.getState().dismissListError();
    // The token is about to be revoked: no lingering socket on it.
    closeLiveSocket();
    try {
      await logout();
    } catch (error) {
      console.error('No se pudo cerrar la sesión en el servidor', error);
    } finally {
      clearToken();
      useSessionStore.getState().clear();
      navigate(LOGIN_PATH, { replace: true });
    }
  }, [navigate, queryClient]);
}
