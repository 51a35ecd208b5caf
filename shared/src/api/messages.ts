import { okEnvelope } from '../schemas/api.js';
import { messageRowSchema, messagesSchema, sendMessageSchema } from '../schemas/messages.js';
import { STAFF_ACCESS } from './access.js';
import { defineRoute } from './route.js';

const tag = 'mensajes';

/** Messages to teams: send one, list them with their receipts. Judges and admins. */
export const messagesRoutes = {
  /**
   * `POST /api/sendMessage {target, id?, text, expires_minutes?}`: to one team or level of the active
   * contest, or all its teams; their connected agents get it at once, the others when they come back
   * before it expires (default 15 min). Answers the message with its receipts. 409
   * `MESSAGES.noActiveContest` without an active contest; 422 for a team not in it, a level that does
   * not exist, or a target with no team.
   */
  send: defineRoute({
    method: 'POST',
    path: '/api/sendMessage',
    access: STAFF_ACCESS,
    tag,
    summary: 'Envía un mensaje a un equipo, un nivel o todos',
    body: sendMessageSchema,
    reply: okEnvelope(messageRowSchema),
  }),
  /** `GET /api/messages`: the active contest's 50 newest messages, newest first, with every team's receipt. */
  list: defineRoute({
    method: 'GET',
    path: '/api/messages',
    access: STAFF_ACCESS,
    tag,
    summary: 'Mensajes enviados en el concurso activo y sus acuses',
    reply: okEnvelope(messagesSchema),
  }),
} as const;
