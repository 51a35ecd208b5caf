import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  TEAM_STATUS_NAMES,
  attemptLogRowSchema,
  idSchema,
  okEnvelope,
  statusChangeRowSchema,
} from '@concurso/shared';
import { STAFF_ACCESS } from '../../plugins/access.js';
import { HttpError } from '../../lib/http-error.js';

const params = z.object({ teamId: idSchema });
const iso = (d: Date | string) => new Date(d).toISOString();

/**
 * The two logs DESIGN.md section 4 keeps beyond the spec, for admins and judges: a team's attempts
 * as its agent reported them, and its blocks and unblocks with the judge and time. Newest first, at
 * most 1,000 rows.
 */
const logsRoutes: FastifyPluginAsyncZod = async (app) => {
  const requireTeam = async (teamId: number) => {
    const rows = await app.orm.em.execute('select id from teams where id = ?', [teamId]);
    if (rows.length === 0) throw new HttpError(404, 'No se encontró el equipo.');
  };

  /** `GET /api/teamAttemptsLog/{teamId}`: `{id, process, killed, occurred_at, received_at}` rows. */
  app.get(
    '/teamAttemptsLog/:teamId',
    {
      config: { access: STAFF_ACCESS },
      schema: {
        tags: ['tablero'],
        summary: 'Intentos de un equipo',
        params,
        response: { 200: okEnvelope(z.array(attemptLogRowSchema)) },
      },
    },
    async (request) => {
      await requireTeam(request.params.teamId);
      const rows = await app.orm.em.execute<
        Array<{ id: number; process: string; killed: number; occurred_at: Date; received_at: Date }>
      >(
        'select id, process, killed, occurred_at, received_at from attempts where teams_id = ? order by id desc limit 1000',
        [request.params.teamId],
      );
      return {
        success: true as const,
        message: '',
        data: rows.map((r) => ({
          id: Number(r.id),
          process: r.process,
          killed: Boolean(Number(r.killed)),
          occurred_at: iso(r.occurred_at),
          received_at: iso(r.received_at),
        })),
      };
    },
  );

  /** `GET /api/teamStatusLog/{teamId}`: `{id, from, to, user, at}` rows of the audit of blocks and unblocks. */
  app.get(
    '/teamStatusLog/:teamId',
    {
      config: { access: STAFF_ACCESS },
      schema: {
        tags: ['tablero'],
        summary: 'Bloqueos y desbloqueos de un equipo',
        params,
        response: { 200: okEnvelope(z.array(statusChangeRowSchema)) },
      },
    },
    async (request) => {
      await requireTeam(request.params.teamId);
      const rows = await app.orm.em.execute<
        Array<{
          id: number;
          from: number;
          to: number;
          users_id: number | null;
          name: string | null;
          at: Date;
        }>
      >(
        'select c.id, c.`from`, c.`to`, c.users_id, u.name, c.`at` from team_status_changes c left join users u on u.id = c.users_id where c.teams_id = ? order by c.id desc limit 1000',
        [request.params.teamId],
      );
      const status = (id: number) => ({
        id: Number(id),
        status: TEAM_STATUS_NAMES[Number(id)] ?? String(id),
      });
      return {
        success: true as const,
        message: '',
        data: rows.map((r) => ({
          id: Number(r.id),
          from: status(r.from),
          to: status(r.to),
          user: r.users_id === null ? null : { id: Number(r.users_id), name: r.name ?? '' },
          at: iso(r.at),
        })),
      };
    },
  );
};

export default logsRoutes;
