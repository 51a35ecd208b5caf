import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { transaction } from '../../db/transaction.js';
import { z } from 'zod';
import {
  MESSAGES,
  idParamsSchema,
  idSchema,
  memberRowSchema,
  membersInputSchema,
  okEnvelope,
} from '@concurso/shared';
import { ADMIN_ACCESS, STAFF_ACCESS } from '../../plugins/access.js';
import { HttpError } from '../../lib/http-error.js';
import { emitCatalogChanged } from '../../realtime/board-events.js';
import { listMembers, saveMembers } from './members.service.js';

/** Team members (SPEC.md sections 2, 3, 5, 7). */
const membersRoutes: FastifyPluginAsyncZod = async (app) => {
  /** `GET /api/getParticipantTeam/{teamId}`: a team's members with `career.name` (null: 'Sin carrera'). 404 unknown team. */
  app.get(
    '/getParticipantTeam/:teamId',
    {
      config: { access: STAFF_ACCESS },
      schema: {
        tags: ['equipos'],
        summary: 'Integrantes de un equipo',
        params: z.object({ teamId: idSchema }),
        response: { 200: okEnvelope(z.array(memberRowSchema)) },
      },
    },
    async (request) => {
      const em = app.orm.em;
      const team = await em.execute('select id from teams where id = ?', [request.params.teamId]);
      if (team.length === 0) throw new HttpError(404, 'No se encontró el equipo.');
      return { success: true as const, data: await listMembers(em, request.params.teamId), message: '' };
    },
  );

  /**
   * `POST /api/createMember [{code, name, semester, teams_id, careers_id}, ...]` (admin): the whole list
   * in one transaction, all rows or none. A student code already in another team of the same contest
   * is refused (409) naming that team.
   */
  app.post(
    '/createMember',
    {
      config: { access: ADMIN_ACCESS },
      schema: {
        tags: ['equipos'],
        summary: 'Registra los integrantes de un equipo',
        body: membersInputSchema,
        response: { 200: okEnvelope(z.array(memberRowSchema)) },
      },
    },
    async (request) => {
      const data = await transaction(app.orm.em, (em) => saveMembers(em, request.body));
      emitCatalogChanged(app.io, 'members');
      return { success: true as const, data, message: MESSAGES.created };
    },
  );

  /** `GET /api/deleteMember/{id}` (admin): removes one member from its team. */
  app.get(
    '/deleteMember/:id',
    {
      config: { access: ADMIN_ACCESS },
      schema: {
        tags: ['equipos'],
        summary: 'Elimina un integrante',
        params: idParamsSchema,
        response: { 200: z.object({ success: z.literal(true), message: z.string() }) },
      },
    },
    async (request) => {
      const result = await app.orm.em.execute<{ affectedRows: number }>(
        'delete from members where id = ?',
        [request.params.id],
        'run',
      );
      if (Number(result.affectedRows) === 0) throw new HttpError(404, 'No se encontró el integrante.');
      emitCatalogChanged(app.io, 'members');
      return { success: true as const, message: MESSAGES.deleted };
    },
  );
};

export default membersRoutes;
