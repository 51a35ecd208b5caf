import { boardRoutes, type RouteReply } from '@concurso/shared';
import { callApi } from './call-api';

/** Answer of `GET /api/teamAttempts` (`boardRoutes.teamAttempts`): the active contest and its teams per level. */
export type TeamAttemptsResponse = RouteReply<typeof boardRoutes.teamAttempts>;

/** `GET /api/teamAttempts`: the board snapshot. */
export function fetchTeamAttempts(signal?: AbortSignal): Promise<TeamAttemptsResponse> {
  return callApi(boardRoutes.teamAttempts, { signal });
}

/**
 * `GET /api/descalificarTeam/{id}` (`boardRoutes.toggleTeamStatus`): toggles a team between active (1)
 * and disqualified (2); answers the new board row.
 */
export function toggleTeamStatus(teamId: number): Promise<RouteReply<typeof boardRoutes.toggleTeamStatus>> {
  return callApi(boardRoutes.toggleTeamStatus, { params: { id: teamId } });
}
