import { z } from 'zod';
import { idSchema } from '../schemas/common.js';
import { okEnvelope } from '../schemas/api.js';
import { STAFF_ACCESS } from './access.js';
import { defineRoute } from './route.js';

/** `{ teamId }` path parameters of the calls about one team (its members, its logs). */
export const teamIdParamsSchema = z.object({ teamId: idSchema });

/**
 * `GET /api/<name>/{teamId}` for admins and judges: a list about one team (its members, its logs),
 * `row` per item; 404 for an unknown team.
 */
export const teamListRoute = <const N extends string, Row extends z.ZodType>(
  name: N,
  tag: string,
  summary: string,
  row: Row,
) =>
  defineRoute({
    method: 'GET',
    path: `/api/${name}/:teamId`,
    access: STAFF_ACCESS,
    tag,
    summary,
    params: teamIdParamsSchema,
    reply: okEnvelope(z.array(row)),
  });

/**
 * The teams module's calls beyond a catalogue's four (docs/spec.md section 7). Its four calls (`getTeams`,
 * `createTeam`, `updateTeam`, `deleteTeam/{id}`) are `teamsCatalogApi` (catalogs.ts); a team's members
 * are `membersRoutes`, its logs `logsRoutes`, its agent key the agent module's.
 */
export const teamsRoutes = {} as const;
