import { LockMode, raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import type { AgentAlert } from '@concurso/shared';
import { placeholders, type SqlRunner, type SqlStatement } from '../../db/sql.js';
import { Team } from './team.entity.js';
import { TeamStatusChange } from './team-status-change.entity.js';
import { User } from '../users/index.js';
import { appendRowToChain } from '../chain/index.js';

/*
 * The one writer of what the boards show of a team row (the rule was written in five places,
 * two ways): its status, its attempts count and its agent's presence, each change bumping `version`,
 * the number the boards and the projector keep only newer rows by (docs/design.md section 6). The bump is
 * always done by the database (`version = version + 1`), never from a loaded value: a judge's toggle,
 * a group of attempts and a heartbeat of one team may run at once. A team's edit (teams.repository.ts)
 * bumps it with the same fragment. Every function runs in the caller's transaction: it takes the
 * EntityManager, or a `SqlRunner` where the attempts' bare pool calls it too.
 */

/** `version + 1`, for an entity assignment or `nativeUpdate`: the one way a team's version changes. */
export const nextVersion = () => raw('version + 1');

/** The same, as SQL text for the statements of the attempts hot path. */
const NEXT_VERSION_SQL = 'version = version + 1';

/**
 * Team `teamId` with its status and `version`, its row locked until the transaction ends so concurrent
 * toggles, attempts and heartbeats of the team queue; null when it does not exist.
 */
export async function lockTeam(em: EntityManager, teamId: number) {
  return em.findOne(Team, teamId, {
    fields: ['statusTeam', 'version'],
    lockMode: LockMode.PESSIMISTIC_WRITE,
  });
}

/**
 * Sets a locked team's status from `team.status` to `to`, bumps its `version` and writes the audit row
 * with the judge `by` and the time (docs/spec.md section 4), in the caller's transaction: the one writer
 * of every status change. `db` is the judge's ORM transaction (an EntityManager: the toggle is no hot
 * path) or, for the automatic block inside the attempts group commit, that group's `SqlRunner` on the
 * bare pool (the same columns as SQL text: no ORM there, db/README.md). `by` 'automatic': the server's
 * own block at the contest's `max_attempts`, audited with no user. The audit row is chained to the
 * team's contest log (modules/chain/README.md). Read the row again (board-rows.repository.ts) for what
 * to push.
 */
export async function changeTeamStatus(
  db: EntityManager | SqlRunner,
  team: { id: number; status: number },
  to: number,
  by: number | 'automatic',
): Promise<void> {
  const now = new Date();
  const automatic = by === 'automatic';
  let changeId: number;
  if (typeof db === 'function') {
    await db(`update teams set status_team_id = ?, ${NEXT_VERSION_SQL}, updated_at = ? where id = ?`, [
      to,
      now,
      team.id,
    ]);
    const inserted = await db(
      'insert into team_status_changes (teams_id, `from`, `to`, users_id, automatic, `at`, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
      [team.id, team.status, to, automatic ? null : by, automatic ? 1 : 0, now, now, now],
    );
    changeId = Number((inserted as unknown as { insertId: number }).insertId);
  } else {
    await db.nativeUpdate(Team, { id: team.id }, { statusTeam: to, version: nextVersion(), updatedAt: now });
    const change = db.create(TeamStatusChange, {
      team: db.getReference(Team, team.id),
      from: team.status,
      to,
      user: automatic ? null : db.getReference(User, by),
      automatic,
      at: now,
      createdAt: now,
      updatedAt: now,
    });
    await db.flush();
    changeId = change.id;
  }
  // Chained in the same transaction, after the team row's lock (modules/chain/README.md).
  await appendRowToChain(db, 'estatus', changeId);
}

/**
 * The one UPDATE that adds to each team of `addedPerTeam` (not empty) its new attempts, bumping `version`
 * and marking its agent seen at `now` and online (an agent that reports attempts is alive). The attempts
 * group commit sends it (BENCHMARKS.md, "Group commit of attempts"; the team rows are locked by the
 * group already).
 */
export function addAttemptCountsStatement(
  addedPerTeam: ReadonlyMap<number, number>,
  now: Date,
): SqlStatement {
  const moved = [...addedPerTeam.keys()];
  return {
    sql: `update teams set number_attempts = number_attempts + case id ${moved.map(() => 'when ? then ?').join(' ')} end,
      ${NEXT_VERSION_SQL}, agent_last_seen = ?, agent_online = 1 where id in (${placeholders(moved.length)})`,
    params: [...moved.flatMap((id) => [id, addedPerTeam.get(id)!]), now, ...moved],
  };
}

/**
 * `agent_last_seen` = `at`; with `cameOnline`, also `agent_online`, no alert and a new
 * `version` for the boards.
 */
export async function markAgentSeen(
  em: EntityManager,
  teamId: number,
  at: Date,
  cameOnline: boolean,
): Promise<void> {
  await em.nativeUpdate(
    Team,
    { id: teamId },
    cameOnline
      ? { agentLastSeen: at, agentOnline: true, agentAlert: null, version: nextVersion() }
      : { agentLastSeen: at },
  );
}

/**
 * Sets what the boards show of team `teamId`'s agent when its machines decide it (presence per machine,
 * docs/design.md section 6a): `online` (some machine beats) and `alert` (`sin_senal` while one of its
 * machines is silent, even with another beating; `detenido`; or none), bumping `version`.
 */
export async function setAgentPresence(
  em: EntityManager,
  teamId: number,
  online: boolean,
  alert: AgentAlert | null,
): Promise<void> {
  await em.nativeUpdate(
    Team,
    { id: teamId },
    { agentOnline: online, agentAlert: alert, version: nextVersion() },
  );
}

/**
 * Marks the agents of `teamIds` offline with `alert` (`sin_senal`, `detenido`, or none) and
 * bumps the teams' `version` for the boards.
 */
export async function markAgentsOffline(
  em: EntityManager,
  teamIds: readonly number[],
  alert: AgentAlert | null = null,
): Promise<void> {
  if (teamIds.length === 0) return;
  await em.nativeUpdate(
    Team,
    { id: { $in: [...teamIds] } },
    { agentOnline: false, agentAlert: alert, version: nextVersion() },
  );
}

/** A team's «programa nuevo» board mark: the program's name, latest start and inventory row id. */
export interface NewProgramMark {
  name: string;
  /** Latest reported start (the agent's clock). */
  at: Date;
  /** `observed_processes.id` of the program's row. */
  observedId: number;
}

/**
 * Sets team `teamId`'s «programa nuevo» mark (observed module: the newest program only it ran after
 * the contest's first minutes), bumping `version` for the boards.
 */
export async function setNewProgramMark(
  em: EntityManager,
  teamId: number,
  mark: NewProgramMark,
): Promise<void> {
  await em.nativeUpdate(
    Team,
    { id: teamId },
    { newProgram: mark.name, newProgramAt: mark.at, newProgramId: mark.observedId, version: nextVersion() },
  );
}

/**
 * Takes the «programa nuevo» mark off the teams of `teamIds` whose mark is one of the inventory rows
 * `observedIds` (another team ran that program too), bumping their `version`. Answers the teams changed.
 */
export async function clearNewProgramMarks(
  em: EntityManager,
  teamIds: readonly number[],
  observedIds: readonly number[],
): Promise<number[]> {
  if (teamIds.length === 0 || observedIds.length === 0) return [];
  const where = { id: { $in: [...teamIds] }, newProgramId: { $in: [...observedIds] } };
  const marked = await em.find(Team, where, { fields: ['id'], orderBy: { id: 'asc' } });
  if (marked.length === 0) return [];
  const ids = marked.map((team) => team.id);
  await em.nativeUpdate(
    Team,
    { id: { $in: ids } },
    { newProgram: null, newProgramAt: null, newProgramId: null, version: nextVersion() },
  );
  return ids;
}
