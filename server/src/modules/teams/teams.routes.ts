import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  teamsCatalogApi,
  type teamInputSchema,
  type teamRowSchema,
  type teamUpdateSchema,
} from '@concurso/shared';
import { Coach } from '../coaches/coach.entity.js';
import { Contest } from '../contests/contest.entity.js';
import { Level } from '../levels/level.entity.js';
import { Team } from './team.entity.js';
import { catalogRoutes } from '../catalogs/catalog-routes.js';
import { checkTeamInput, listTeams, requireCurrentContestId, teamRow } from './teams.service.js';
import { boardTeam, currentContest } from '../board/board.service.js';
import { emitTeamRemoved, emitTeamUpdated } from '../../realtime/board-events.js';

/**
 * Teams (SPEC.md sections 2, 3, 5, 7): `getTeams`, `createTeam {name, levels_id, coaches_id}` (joins the
 * current contest), `updateTeam`, `deleteTeam/{id}` (its members, attempts and audit rows go with it,
 * DESIGN.md section 3). The live boards follow: a new or edited team is pushed as `team.updated`, a
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
  list: listTeams,
  async create(em, input) {
    const contestId = await requireCurrentContestId(em);
    await checkTeamInput(em, input, contestId);
    const team = em.create(
      Team,
      {
        name: input.name,
        level: em.getReference(Level, input.levels_id),
        coach: em.getReference(Coach, input.coaches_id),
        contest: em.getReference(Contest, contestId),
      },
      { partial: true },
    );
    await em.flush();
    return (await teamRow(em, team.id))!;
  },
  async update(em, id, input) {
    const team = await em.findOne(Team, id);
    if (!team) return null;
    await checkTeamInput(em, input, team.contest.id, id);
    em.assign(team, {
      name: input.name,
      level: em.getReference(Level, input.levels_id),
      coach: em.getReference(Coach, input.coaches_id),
    });
    await em.flush();
    // In SQL, not from the loaded value: agents' attempts bump it concurrently.
    await em.execute('update teams set version = version + 1 where id = ?', [id]);
    return teamRow(em, id);
  },
  async inUse() {
    return null; // Members, attempts and audit rows are the team's own: they go with it.
  },
  async snapshot(em, id) {
    const rows = await em.execute<Array<{ levels_id: number }>>('select levels_id from teams where id = ?', [
      id,
    ]);
    return rows[0] ? { levels_id: Number(rows[0].levels_id) } : null;
  },
  async remove(em, id) {
    return (await em.nativeDelete(Team, { id })) > 0;
  },
  async afterCommit(app, { kind, id, before }) {
    // A cached agent key must not keep a deleted team, or its old level and contest, alive.
    if (kind !== 'create') app.forgetAgentKeys();
    if (kind === 'remove') {
      if (before) emitTeamRemoved(app.io, { id, levels_id: before.levels_id });
      return;
    }
    const em = app.orm.em.fork();
    const row = await boardTeam(em, id);
    if (!row) return;
    if (before && before.levels_id !== row.levels_id)
      emitTeamRemoved(app.io, { id, levels_id: before.levels_id });
    // Only the current contest's teams are on the boards.
    const contest = await currentContest(em);
    const rows = await em.execute<Array<{ contests_id: number }>>(
      'select contests_id from teams where id = ?',
      [id],
    );
    if (contest && Number(rows[0]?.contests_id) === contest.id) emitTeamUpdated(app.io, row);
  },
});

export default teamsRoutes;
