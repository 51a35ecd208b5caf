import type { FastifyInstance } from 'fastify';
import type { EntityManager } from '@mikro-orm/mysql';
import {
  teamsCatalogApi,
  type teamInputSchema,
  type teamRowSchema,
  type teamUpdateSchema,
} from '@concurso/shared';
import { catalogRoutes, type CatalogRoutesOptions } from '../catalogs/index.js';
import { activeContest, contestIdFor } from '../contests/index.js';
import {
  checkTeamInput,
  deleteTeam,
  findTeam,
  insertTeam,
  listTeamRows,
  updateTeam,
} from './teams.repository.js';
import { boardRows } from './board-rows.repository.js';

/** What app.ts hands the teams module. */
export interface TeamsRoutesOptions extends CatalogRoutesOptions {
  /**
   * Takes team `teamId`'s members along to contest `contestId` when an update moves the team there, in
   * the update's transaction (the members module's `moveMembersWithTeam`: moving members is its job).
   * Throws an HttpError (409) to refuse the move.
   */
  moveMembers(em: EntityManager, teamId: number, contestId: number): Promise<void>;
}

/**
 * Teams (docs/spec.md sections 2, 3, 5, 7): `getTeams`, `createTeam {name, levels_id, coaches_id, contests_id?}`
 * (joins the chosen contest, or the active one), `updateTeam` (may move it to another contest, members
 * included), `deleteTeam/{id}` (its members, attempts and audit rows go with it,
 * docs/design.md section 3). The live boards follow: a new or edited team's row goes out in a `board.frame`, a
 * level change also removes it from the old level's screens, a deleted one is `team.removed`.
 */
export default async function teamsRoutes(app: FastifyInstance, options: TeamsRoutesOptions): Promise<void> {
  await app.register(teamsCatalog(options.moveMembers), { uses: options.uses });
}

/** The catalogue's four calls; `moveMembers` as in `TeamsRoutesOptions`. */
const teamsCatalog = (moveMembers: TeamsRoutesOptions['moveMembers']) =>
  catalogRoutes<
    typeof teamRowSchema,
    typeof teamInputSchema,
    typeof teamUpdateSchema,
    { levels_id: number; contests_id: number }
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
      const contestId =
        input.contests_id === undefined ? team.contest.id : await contestIdFor(em, input.contests_id);
      await checkTeamInput(em, input, contestId, id);
      // A move to another contest takes the members along; a student code is once per contest.
      if (contestId !== team.contest.id) await moveMembers(em, id, contestId);
      return updateTeam(em, team, input, contestId);
    },
    async inUse() {
      return null; // Members, attempts and audit rows are the team's own: they go with it.
    },
    async snapshot(em, id) {
      const team = await findTeam(em, id);
      return team ? { levels_id: team.level.id, contests_id: team.contest.id } : null;
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
      const row = team && (await boardRows(em, [id]))[0];
      if (!team || !row) return;
      // Only the active contest's teams are on the boards: a team moved out of it, or to another level,
      // leaves the screens that showed it.
      const contest = await activeContest(em);
      const onBoard = contest !== null && team.contest.id === contest.id;
      const wasOnBoard = !!before && contest !== null && before.contests_id === contest.id;
      if (before && wasOnBoard && (!onBoard || before.levels_id !== row.levels_id))
        app.board.teamRemoved({ id, levels_id: before.levels_id });
      if (onBoard) app.board.teamUpdated(row);
    },
  });
