import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { transaction } from '../../db/transaction.js';
import { z } from 'zod';
import {
  MESSAGES,
  USER_TYPES,
  idParamsSchema,
  okEnvelope,
  userInputSchema,
  userRowSchema,
  userUpdateSchema,
} from '@concurso/shared';
import { ADMIN_ACCESS } from '../../plugins/access.js';
import { HttpError } from '../../lib/http-error.js';
import { emitCatalogChanged } from '../../realtime/board-events.js';
import { endSocketSessions, userRoom } from '../../realtime/socket.js';
import { createUser, deleteUser, listUsers, updateUser } from './users.service.js';

const LISTS = [
  ['getUsersAdmin', USER_TYPES.admin, 'Usuarios administradores'],
  ['getUsersJuecez', USER_TYPES.judge, 'Usuarios jueces'],
  ['getUsersParticipants', USER_TYPES.participant, 'Usuarios participantes'],
] as const;

/**
 * Users of the three types (SPEC.md sections 2, 3, 7; DESIGN.md section 5), admin only. Passwords are
 * written only: no answer ever carries one.
 */
const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const [path, type, summary] of LISTS) {
    /** `GET /api/getUsersAdmin | getUsersJuecez | getUsersParticipants`: `{id, name, username, types_users_id}` rows. */
    app.get(
      `/${path}`,
      {
        config: { access: ADMIN_ACCESS },
        schema: { tags: ['usuarios'], summary, response: { 200: okEnvelope(z.array(userRowSchema)) } },
      },
      async () => ({ success: true as const, data: await listUsers(app.orm.em, type), message: '' }),
    );
  }

  /** `POST /api/createUser {name, username, password (staff), types_users_id}`; 409 for a taken username. */
  app.post(
    '/createUser',
    {
      config: { access: ADMIN_ACCESS },
      schema: {
        tags: ['usuarios'],
        summary: 'Registra un usuario',
        body: userInputSchema,
        response: { 200: okEnvelope(userRowSchema) },
      },
    },
    async (request) => {
      const data = await transaction(app.orm.em, (em) => createUser(em, request.body));
      emitCatalogChanged(app.io, 'users');
      return { success: true as const, data, message: MESSAGES.created };
    },
  );

  /**
   * `POST /api/updateUser {id, name, username, password?, types_users_id}`: an empty password keeps the
   * current one. A new password or role ends the user's sessions and sockets in every process.
   */
  app.post(
    '/updateUser',
    {
      config: { access: ADMIN_ACCESS },
      schema: {
        tags: ['usuarios'],
        summary: 'Actualiza un usuario',
        body: userUpdateSchema,
        response: { 200: okEnvelope(userRowSchema) },
      },
    },
    async (request) => {
      const { id, ...input } = request.body;
      const updated = await transaction(app.orm.em, (em) => updateUser(em, id, input));
      if (!updated) throw new HttpError(404, 'No se encontró el usuario.');
      // Their tokens already fail the guard (session_version moved); open sockets close now.
      if (updated.sessionsEnded) endSocketSessions(app.io, userRoom(id), updated.sessionsEnded);
      emitCatalogChanged(app.io, 'users');
      return { success: true as const, data: updated.row, message: MESSAGES.saved };
    },
  );

  /** `GET /api/deleteUser/{id}`: not oneself, not the last admin (409); the user's sessions and sockets end. */
  app.get(
    '/deleteUser/:id',
    {
      config: { access: ADMIN_ACCESS },
      schema: {
        tags: ['usuarios'],
        summary: 'Elimina un usuario',
        params: idParamsSchema,
        response: { 200: z.object({ success: z.literal(true), message: z.string() }) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const removed = await transaction(app.orm.em, (em) => deleteUser(em, id, request.staff!.id));
      if (!removed) throw new HttpError(404, 'No se encontró el usuario.');
      // Their tokens already fail the guard (the user is gone); open sockets close now.
      endSocketSessions(app.io, userRoom(id), 'deleted');
      emitCatalogChanged(app.io, 'users');
      return { success: true as const, message: MESSAGES.deleted };
    },
  );
};

export default usersRoutes;
