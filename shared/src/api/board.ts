import { z } from 'zod';
import { idParamsSchema } from '../schemas/common.js';
import { okEnvelope } from '../schemas/api.js';
import { boardTeamSchema, teamAttemptsSchema } from '../schemas/board.js';
import { STAFF_ACCESS } from './access.js';
import { defineRoute } from './route.js';

/** The live board's REST side (docs/spec.md section 7, docs/design.md section 6); its pushes are in events.ts. */
export const boardRoutes = {
  /**
   * `GET /api/teamAttempts`: the active contest (null when none is) and its teams per level (`basico`, `intermedio`,
   * `avanzado`, each by name), every row with the fields of a `board.frame` row, beside `success` and
   * `message` (docs/spec.md section 7 reads the lists at the top level). Admin and judge.
   */
  teamAttempts: defineRoute({
    method: 'GET',
    path: '/api/teamAttempts',
    access: STAFF_ACCESS,
    tag: 'tablero',
    summary: 'Equipos del concurso activo por nivel, con sus intentos',
    reply: teamAttemptsSchema.extend({ success: z.literal(true), message: z.string() }),
  }),
  /**
   * `GET /api/descalificarTeam/{id}`: toggles the team between Activo (1) and Descalificado (2)
   * (docs/spec.md section 4), audits it with the judge and time, and answers the new board row, also pushed
   * as a `board.frame` row. Admin and judge. 404 'No se encontró el equipo.'
   */
  toggleTeamStatus: defineRoute({
    method: 'GET',
    path: '/api/descalificarTeam/:id',
    access: STAFF_ACCESS,
    tag: 'tablero',
    summary: 'Bloquea o desbloquea un equipo',
    params: idParamsSchema,
    reply: okEnvelope(boardTeamSchema),
  }),
} as const;
