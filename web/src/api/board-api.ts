import type { ApiOk, BoardTeam, TeamAttempts } from '@concurso/shared';
import { apiRequest } from './api-client';

/** Answer of `GET /api/teamAttempts`: the current contest and its teams per level. */
export type TeamAttemptsResponse = TeamAttempts & { success: true; message: string };

/** `GET /api/teamAttempts`: the board snapshot. */
export function fetchTeamAttempts(signal?: AbortSignal): Promise<TeamAttemptsResponse> {
  return apiRequest<TeamAttemptsResponse>('/api/teamAttempts', { signal });
}

/** `GET /api/descalificarTeam/{id}`: toggles a team between active (1) and disqualified (2). */
export function toggleTeamStatus(teamId: number): Promise<ApiOk<BoardTeam>> {
  return apiRequest<ApiOk<BoardTeam>>(`/api/descalificarTeam/${teamId}`);
}
