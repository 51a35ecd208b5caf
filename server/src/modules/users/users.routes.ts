import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES, USER_TYPES, type SessionEndReason, usersRoutes as api } from '@concurso/shared';
import { transaction } from '../../db/transaction.js';
import { HttpError } from '../../lib/http-error.js';
import { addRoute } from '../../lib/route.js';
import { endSocketSessions, userRoom } from '../../realtime/socket.js';
import { listUserRows } from './users.repository.js';
import { createUser, deleteUser, updateUser } from './users.service.js';

const NOT_FOUND = 'No se encontró el usuario.';

/**
 * Users of the three types (docs/spec.md sections 2, 3, 7; docs/design.md section 5), admin only: the calls of
 * `usersRoutes` (shared/src/api/users.ts). Passwords are written only: no answer ever carries one.
 */
const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  /** After a committed write: end the user's open sockets (their tokens already fail the guard), tell screens. */
  const announce = (userId: number, sessionsEnded: SessionEndReason | null) => {
    if (sessionsEnded) endSocketSessions(app.io, userRoom(userId), sessionsEnded);
    app.board.catalogChanged('users');
  };

  for (const [route, type] of [
    [api.listAdmins, USER_TYPES.admin],
    [api.listJudges, USER_TYPES.judge],
    [api.listParticipants, USER_TYPES.participant],
  ] as const) {
    addRoute(app, route, async () => ({
      success: true as const,
      data: await listUserRows(app.orm.em, type),
      message: '',
    }));
  }

  addRoute(app, api.create, async (request) => {
    const data = await transaction(app.orm.em, (em) => createUser(em, request.body));
    announce(data.id, null);
    return { success: true as const, data, message: MESSAGES.created };
  });

  addRoute(app, api.update, async (request) => {
    const { id, ...input } = request.body;
    const updated = await transaction(app.orm.em, (em) => updateUser(em, id, input));
    if (!updated) throw new HttpError(404, NOT_FOUND);
    announce(id, updated.sessionsEnded);
    return { success: true as const, data: updated.row, message: MESSAGES.saved };
  });

  addRoute(app, api.remove, async (request) => {
    const { id } = request.params;
    if (!(await transaction(app.orm.em, (em) => deleteUser(em, id, request.staff!.id)))) {
      throw new HttpError(404, NOT_FOUND);
    }
    announce(id, 'deleted');
    return { success: true as const, message: MESSAGES.deleted };
  });
};

export default usersRoutes;
