import { authRoutes, type LoginInput, type RouteReply } from '@concurso/shared';
import { callApi } from './call-api';

/**
 * `POST /api/auth/login` (`authRoutes.login`): exchanges credentials for an access token. Its 401
 * ('Usuario o contraseña incorrectos!') is the login screen's own error, never an ended session.
 */
export function login(input: LoginInput): Promise<RouteReply<typeof authRoutes.login>> {
  return callApi(authRoutes.login, { body: input, keepSessionOn401: true });
}

/**
 * `POST /api/auth/me` (`authRoutes.me`): the user behind the stored token (the route guard's session
 * check; a 401 ends the session). `signingIn`: the login screen's check right after the login, whose
 * failure the login screen reports itself.
 */
export function fetchMe(
  signal?: AbortSignal,
  { signingIn = false }: { signingIn?: boolean } = {},
): Promise<RouteReply<typeof authRoutes.me>> {
  return callApi(authRoutes.me, { signal, keepSessionOn401: signingIn });
}

/** `POST /api/auth/logout` (`authRoutes.logout`): revokes the stored token for good (a 401: it already was). */
export function logout(): Promise<RouteReply<typeof authRoutes.logout>> {
  return callApi(authRoutes.logout, { keepSessionOn401: true });
}
