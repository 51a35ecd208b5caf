import { z } from 'zod';
import { idParamsSchema } from '../schemas/common.js';
import { okEnvelope } from '../schemas/api.js';
import { userInputSchema, userRowSchema, userUpdateSchema } from '../schemas/teams.js';
import { ADMIN_ACCESS } from './access.js';
import { deletedReplySchema } from './catalog.js';
import { defineRoute } from './route.js';

const tag = 'usuarios';

/** `GET /api/<name>`: the users of one type as `{id, name, username, types_users_id}` rows, oldest first. */
const userList = <const N extends string>(name: N, summary: string) =>
  defineRoute({
    method: 'GET',
    path: `/api/${name}`,
    access: ADMIN_ACCESS,
    tag,
    summary,
    reply: okEnvelope(z.array(userRowSchema)),
  });

/**
 * Users of the three types (docs/spec.md sections 2, 3, 7; docs/design.md section 5), admin only. Passwords are
 * written only: no answer ever carries one.
 */
export const usersRoutes = {
  listAdmins: userList('getUsersAdmin', 'Usuarios administradores'),
  listJudges: userList('getUsersJuecez', 'Usuarios jueces'),
  listParticipants: userList('getUsersParticipants', 'Usuarios participantes'),
  /** `{name, username, password (staff), types_users_id}`; 409 for a taken username. */
  create: defineRoute({
    method: 'POST',
    path: '/api/createUser',
    access: ADMIN_ACCESS,
    tag,
    summary: 'Registra un usuario',
    body: userInputSchema,
    reply: okEnvelope(userRowSchema),
  }),
  /**
   * `{id, name, username, password?, types_users_id}`: an empty password keeps the current one. A new
   * password or role ends the user's sessions. 404 unknown user, 409 taken username or last admin.
   */
  update: defineRoute({
    method: 'POST',
    path: '/api/updateUser',
    access: ADMIN_ACCESS,
    tag,
    summary: 'Actualiza un usuario',
    body: userUpdateSchema,
    reply: okEnvelope(userRowSchema),
  }),
  /** Not oneself, not the last admin (409); the user's sessions end. 404 unknown user. */
  remove: defineRoute({
    method: 'GET',
    path: '/api/deleteUser/:id',
    access: ADMIN_ACCESS,
    tag,
    summary: 'Elimina un usuario',
    params: idParamsSchema,
    reply: deletedReplySchema,
  }),
} as const;
