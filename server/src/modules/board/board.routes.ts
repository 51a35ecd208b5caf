import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ACCESS } from '../../plugins/access.js';
import { MESSAGES, boardTeamSchema, idParamsSchema, okEnvelope, teamAttemptsSchema } from '@concurso/shared';
import { teamAttempts, toggleTeamStatus } from './board.service.js';
import { emitTeamUpdated } from '../../realtime/board-events.js';

/** The live board's REST side (SPEC.md section 7, DESIGN.md section 6). */
const boardRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * `GET /api/teamAttempts`: the current contest's teams per level, each row with the fields of
   * `team.updated`. Admin and judge.
   */
  app.get(
    '/teamAttempts',
    {
      config: { access: STAFF_ACCESS },
      schema: {
        tags: ['tablero'],
        summary: 'Equipos del concurso actual por nivel, con sus intentos',
        response: {
          200: teamAttemptsSchema.extend({ success: z.literal(true), message: z.string() }),
        },
      },
    },
    async () => ({ success: true as const, message: '', ...(await teamAttempts(app.orm.em)) }),
  );

  /**
   * `GET /api/descalificarTeam/{id}`: toggles the team between Activo (1) and Descalificado (2),
   * audits it and pushes `team.updated` to the team's level room. Admin and judge. 404 unknown team.
   */
  app.get(
    '/descalificarTeam/:id',
    {
      config: { access: STAFF_ACCESS },
      schema: {
        tags: ['tablero'],
        summary: 'Bloquea o desbloquea un equipo',
        params: idParamsSchema,
        response: { 200: okEnvelope(boardTeamSchema) },
      },
    },
    async (request) => {
      const team = await toggleTeamStatus(app.orm.em, request.params.id, request.staff!.id);
      emitTeamUpdated(app.io, team);
      return { success: true as const, data: team, message: MESSAGES.processed };
    },
  );
};

export default boardRoutes;
