import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import type { TeamImportRow } from '@concurso/shared';
import { TeamImport } from './team-import.entity.js';

/** What an import records of itself. */
export interface NewTeamImport {
  contestId: number;
  /** The admin who imported (null when unknown). */
  userId: number | null;
  /** The file's name as uploaded, cut to 255 characters. */
  fileName: string;
  teams: number;
  members: number;
}

/** Records an import in the caller's transaction and answers its id, for its teams' `team_imports_id`. */
export async function insertTeamImport(em: EntityManager, input: NewTeamImport): Promise<number> {
  return em.insert(TeamImport, {
    contest: input.contestId,
    user: input.userId,
    fileName: input.fileName.slice(0, 255),
    teams: input.teams,
    members: input.members,
    createdAt: new Date(),
    undoneAt: null,
  }) as Promise<number>;
}

/** Import `id` with its row locked until the caller's transaction ends (an undo), or null. */
export function lockTeamImport(em: EntityManager, id: number) {
  return em.findOne(TeamImport, id, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/** Marks import `id` undone now. */
export async function markImportUndone(em: EntityManager, id: number): Promise<void> {
  await em.nativeUpdate(TeamImport, { id }, { undoneAt: new Date() });
}

/** A `team_imports` row as `listTeamImports` reads it, with its teams' counts. */
interface ImportListRow {
  id: number;
  contests_id: number;
  calendar: string;
  file_name: string;
  teams: number;
  members: number;
  created_at: Date;
  undone_at: Date | null;
  users_id: number | null;
  user_name: string | null;
  remaining: number | string;
  attempts: number | string | null;
}

/**
 * Every import, newest first (`GET /api/getTeamImports`), each with its contest's calendar,
 * its user's name, how many of its teams remain and their attempts added: one query, grouped.
 */
export async function listTeamImports(em: EntityManager): Promise<TeamImportRow[]> {
  const rows = await em.execute<ImportListRow[]>(
    'select ti.id, ti.contests_id, c.calendar, ti.file_name, ti.teams, ti.members, ti.created_at, ' +
      'ti.undone_at, ti.users_id, u.name as user_name, count(t.id) as remaining, ' +
      'sum(t.number_attempts) as attempts ' +
      'from team_imports ti join contests c on c.id = ti.contests_id ' +
      'left join users u on u.id = ti.users_id left join teams t on t.team_imports_id = ti.id ' +
      'group by ti.id order by ti.id desc',
  );
  return rows.map((row) => ({
    id: row.id,
    contests_id: row.contests_id,
    contest: { id: row.contests_id, calendar: row.calendar },
    file_name: row.file_name,
    teams: row.teams,
    members: row.members,
    remaining: Number(row.remaining),
    attempts: Number(row.attempts ?? 0),
    created_at: new Date(row.created_at).toISOString(),
    user: row.users_id === null ? null : { id: row.users_id, name: row.user_name ?? '' },
    undone_at: row.undone_at === null ? null : new Date(row.undone_at).toISOString(),
  }));
}
