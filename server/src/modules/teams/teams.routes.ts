import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  teamsCatalogApi,
  type teamInputSchema,
  type teamRowSchema,
  type teamUpdateSchema,
} from '@concurso/shared';
import { catalogRoutes } from '../catalogs/catalog-routes.js';
import { boardTeam } from '../board/board.repository.js';
import { activeContest } from '../contests/contests.repository.js';
import { contestIdFor } from '../contests/contests.service.js';
import {
  checkTeamInput,
  deleteTeam,
  findTeam,
  insertTeam,
  listTeamRows,
  updateTeam,
} from './teams.repository.js';

/**
 * Teams (SPEC.md sections 2, 3, 5, 7): `getTeams`, `createTeam {name, levels_id, coaches_id}` (joins the
 * current contest), `updateTeam`, `deleteTeam/{id}` (its members, attempts and audit rows go with it,
 * DESIGN.md section 3). The live boards follow: a new or edited team's row goes out in a `board.frame`, a
 * level change also removes it from the old level's screens, a deleted one is `team.removed`.
 */
const teamsRoutes: FastifyPluginAsyncZod = catalogRoutes<
  typeof teamRowSchema,
  typeof teamInputSchema,
  typeof teamUpdateSchema,
  { levels_id: number }
>({
  catalog: 'teams',
  api: teamsCatalogApi,
  list: listTeamRows,
  async create(em, input) {
    const contestId = await contestIdFor(em, input.contests_id);
    await checkTeamInput(em, input, contestId);
    return insertTeam(em, input, contestId);
  },
  async update(em, id, input) {
    const team = await findTeam(em, id);
    if (!team) return null;
    await checkTeamInput(em, input, team.contest.id, id);
    return updateTeam(em, team, input);
  },
  async inUse() {
    return null; // Members, attempts and audit rows are the team's own: they go with it.
  },
  async snapshot(em, id) {
    const team = await findTeam(em, id);
    return team ? { levels_id: team.level.id } : null;
  },
  remove: deleteTeam,
  async afterCommit(app, { kind, id, before }) {
    // A cached agent key must not keep a deleted team, or its old level and contest, alive.
    if (kind !== 'create') app.forgetAgentKeys();
    if (kind === 'remove') {
      if (before) app.board.teamRemoved({ id, levels_id: before.levels_id });
      return;
    }
    const em = app.orm.em.fork();
    const team = await findTeam(em, id);
    const row = team && (await boardTeam(em, id));
    if (!team || !row) return;
    if (before && before.levels_id !== row.levels_id)
      app.board.teamRemoved({ id, levels_id: before.levels_id });
    // Only the active contest's teams are on the boards.
    const contest = await activeContest(em);
    if (contest && team.contest.id === contest.id) app.board.teamUpdated(row);
  },
});

export default teamsRoutes;
