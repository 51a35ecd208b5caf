import type { FastifyInstance } from 'fastify';
import { MESSAGES, boardRoutes as api } from '@concurso/shared';
import { addRoute } from '../../lib/route.js';
import { teamAttempts, toggleTeamStatus } from './board.service.js';

/** The live board's REST side (shared/src/api/board.ts; docs/spec.md section 7, docs/design.md section 6). */
export default async function boardRoutes(app: FastifyInstance): Promise<void> {
  addRoute(app, api.teamAttempts, async () => ({
    success: true as const,
    message: '',
    ...(await teamAttempts(app.orm.em)),
  }));

  // The new row goes to the screens of the team's level once the toggle has committed.
  addRoute(app, api.toggleTeamStatus, async (request) => {
    const team = await toggleTeamStatus(app.orm.em, request.params.id, request.staff!.id);
    app.board.teamUpdated(team);
    return { success: true as const, data: team, message: MESSAGES.processed };
  });
}
