import type { LoginInput, LoginResponse, MeResponse } from '@concurso/shared';
import { apiRequest } from './api-client';

/** Answer of `POST /api/auth/logout`. */
export interface LogoutResponse {
  success: boolean;
  message: string;
}

/**
 * `POST /api/auth/login`: exchanges credentials for an access token. Its 401 ('Usuario o contraseña
 * incorrectos!') is the login screen's own error, never an ended session.
 */
export function login(input: LoginInput): Promise<LoginResponse> {
  return apiRequest<LoginResponse>('/api/auth/login', {
    method: 'POST',
    body: input,
    keepSessionOn401: true,
  });
}

/**
 * `POST /api/auth/me`: the user behind the stored token (the route guard's session check; a 401 ends
 * the session). `signingIn`: the login screen's check right after the login, whose failure the login
 * screen reports itself.
 */
export function fetchMe(
  signal?: AbortSignal,
  { signingIn = false }: { signingIn?: boolean } = {},
): Promise<MeResponse> {
  return apiRequest<MeResponse>('/api/auth/me', { method: 'POST', signal, keepSessionOn401: signingIn });
}

/** `POST /api/auth/logout`: revokes the stored token on the server for good (a 401: it already was). */
export function logout(): Promise<LogoutResponse> {
  return apiRequest<LogoutResponse>('/api/auth/logout', { method: 'POST', keepSessionOn401: true });
}
