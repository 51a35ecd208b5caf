import { z } from 'zod';
import { idParamsSchema } from '../schemas/common.js';
import { okEnvelope } from '../schemas/api.js';
import { memberRowSchema, membersInputSchema } from '../schemas/teams.js';
import { ADMIN_ACCESS } from './access.js';
import { deletedReplySchema } from './catalog.js';
import { defineRoute } from './route.js';
import { teamListRoute } from './teams.js';

const tag = 'equipos';

/** A team's members (docs/spec.md sections 2, 3, 5, 7). */
export const membersRoutes = {
  /** A team's members with `career.name` (null: 'Sin carrera'), oldest first. 404 unknown team. */
  list: teamListRoute('getParticipantTeam', tag, 'Integrantes de un equipo', memberRowSchema),
  /**
   * `[{code, name, semester, teams_id, careers_id}, ...]`: the whole list in one transaction, all rows
   * or none; answers the team's members. 409 for a student code already in another team of the same
   * contest (naming it), 404 unknown team, 422 field errors as `<row>.<field>`.
   */
  create: defineRoute({
    method: 'POST',
    path: '/api/createMember',
    access: ADMIN_ACCESS,
    tag,
    summary: 'Registra los integrantes de un equipo',
    body: membersInputSchema,
    reply: okEnvelope(z.array(memberRowSchema)),
  }),
  /** Removes one member from its team. 404 unknown member. */
  remove: defineRoute({
    method: 'GET',
    path: '/api/deleteMember/:id',
    access: ADMIN_ACCESS,
    tag,
    summary: 'Elimina un integrante',
    params: idParamsSchema,
    reply: deletedReplySchema,
  }),
} as const;
