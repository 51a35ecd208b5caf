import type { LoginInput, LoginResponse, MeResponse } from '@concurso/shared';
import { apiRequest } from './api-client';

/** Answer of `POST /api/auth/logout`. */
export interface LogoutResponse {
  success: boolean;
  message: string;
}

/** `POST /api/auth/login`: exchanges credentials for an access token. */
export function login(input: LoginInput): Promise<LoginResponse> {
  return apiRequest<LoginResponse>('/api/auth/login', { method: 'POST', body: input });
}

/** `POST /api/auth/me`: the user behind the stored token (the route guard's session check). */
export function fetchMe(signal?: AbortSignal): Promise<MeResponse> {
  return apiRequest<MeResponse>('/api/auth/me', { method: 'POST', signal });
}

/** `POST /api/auth/logout`: revokes the stored token on the server for good. */
export function logout(): Promise<LogoutResponse> {
  return apiRequest<LogoutResponse>('/api/auth/logout', { method: 'POST' });
}
