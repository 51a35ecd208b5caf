import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES, membersRoutes as api } from '@concurso/shared';
import { transaction } from '../../db/transaction.js';
import { HttpError } from '../../lib/http-error.js';
import { addRoute } from '../../lib/route.js';
import { requireTeam } from '../teams/index.js';
import { deleteMember, listMemberRows } from './members.repository.js';
import { saveMembers } from './members.service.js';

/** Team members (docs/spec.md sections 2, 3, 5, 7): the calls of `membersRoutes` (shared/src/api/members.ts). */
const membersRoutes: FastifyPluginAsyncZod = async (app) => {
  addRoute(app, api.list, async (request) => {
    const { teamId } = request.params;
    await requireTeam(app.orm.em, teamId);
    return { success: true as const, data: await listMemberRows(app.orm.em, teamId), message: '' };
  });

  addRoute(app, api.create, async (request) => {
    const data = await transaction(app.orm.em, (em) => saveMembers(em, request.body));
    app.board.catalogChanged('members');
    return { success: true as const, data, message: MESSAGES.created };
  });

  addRoute(app, api.remove, async (request) => {
    if (!(await deleteMember(app.orm.em, request.params.id))) {
      throw new HttpError(404, 'No se encontró el integrante.');
    }
    app.board.catalogChanged('members');
    return { success: true as const, message: MESSAGES.deleted };
  });
};

export default membersRoutes;
