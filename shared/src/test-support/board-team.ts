import { TEAM_STATUS, TEAM_STATUS_NAMES } from '../constants.js';
import type { BoardTeam } from '../schemas/board.js';

/**
 * A board row for the tests of what consumes the push (the web's stores and board, the bench's
 * replicas): `Equipo <id>` of level 1, no attempts, its agent offline, version 1, with the status
 * `statusId` (its name from `TEAM_STATUS_NAMES`) and any field of `overrides`. Tests only: product code
 * never builds a row it did not receive.
 */
export function boardTeam(
  id: number,
  overrides: Partial<BoardTeam> = {},
  statusId: number = TEAM_STATUS.active,
): BoardTeam {
  return {
    id,
    name: `Equipo ${id}`,
    levels_id: 1,
    number_attempts: 0,
    status_team: { id: statusId, status: TEAM_STATUS_NAMES[statusId] ?? '' },
    agent_online: false,
    agent_alert: null,
    version: 1,
    ...overrides,
  };
}
