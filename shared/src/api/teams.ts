import { z } from 'zod';
import { idSchema } from '../schemas/common.js';

/** `{ teamId }` path parameters of the calls about one team (its members, its logs). */
export const teamIdParamsSchema = z.object({ teamId: idSchema });

/**
 * The teams module's calls beyond a catalogue's four (SPEC.md section 7). Its four calls (`getTeams`,
 * `createTeam`, `updateTeam`, `deleteTeam/{id}`) are `teamsCatalogApi` (catalogs.ts); a team's members
 * are `membersRoutes`, its logs `logsRoutes`, its agent key the agent module's.
 */
export const teamsRoutes = {} as const;
