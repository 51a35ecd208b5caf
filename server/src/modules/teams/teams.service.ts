import type { EntityManager } from '@mikro-orm/mysql';
import { MESSAGES, type TeamInput, type TeamRow } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';
import { currentContest } from '../board/board.service.js';
import { requireReference } from '../catalogs/catalog-routes.js';

interface TeamRowSql {
  id: number;
  name: string;
  levels_id: number;
  coaches_id: number;
  contests_id: number;
  number_attempts: number;
  status_team_id: number;
  status: string;
  coach_name: string;
  level: string;
  calendar: string;
  has_key: number;
}

const TEAM_SELECT = `select t.id, t.name, t.levels_id, t.coaches_id, t.contests_id, t.number_attempts, t.status_team_id,
  s.status, c.name as coach_name, l.level, k.calendar, t.agent_key_hash is not null as has_key
  from teams t join status_team s on s.id = t.status_team_id join coaches c on c.id = t.coaches_id
  join levels l on l.id = t.levels_id join contests k on k.id = t.contests_id`;

function toRow(r: TeamRowSql): TeamRow {
  return {
    id: Number(r.id),
    name: r.name,
    levels_id: Number(r.levels_id),
    coaches_id: Number(r.coaches_id),
    contests_id: Number(r.contests_id),
    number_attempts: Number(r.number_attempts),
    status_team: { id: Number(r.status_team_id), status: r.status },
    coach: { id: Number(r.coaches_id), name: r.coach_name },
    level: { id: Number(r.levels_id), level: r.level },
    contest: { id: Number(r.contests_id), calendar: r.calendar },
    has_agent_key: Boolean(Number(r.has_key)),
  };
}

/** Every team of every contest with the names SPEC.md section 3 embeds, oldest first. */
export async function listTeams(em: EntityManager): Promise<TeamRow[]> {
  return (await em.execute<TeamRowSql[]>(`${TEAM_SELECT} order by t.id`)).map(toRow);
}

/** One team as `getTeams` lists it, or null. */
export async function teamRow(em: EntityManager, id: number): Promise<TeamRow | null> {
  const rows = await em.execute<TeamRowSql[]>(`${TEAM_SELECT} where t.id = ?`, [id]);
  return rows[0] ? toRow(rows[0]) : null;
}

/**
 * Checks a team's references and that its name is free in `contestId` (names are unique within a
 * contest, DESIGN.md section 3). 422 for a missing level or coach, 409 for a taken name.
 */
export async function checkTeamInput(em: EntityManager, input: TeamInput, contestId: number, exceptId = 0) {
  await requireReference(em, 'levels', input.levels_id, 'levels_id', 'El nivel seleccionado no existe.');
  await requireReference(em, 'coaches', input.coaches_id, 'coaches_id', 'El coach seleccionado no existe.');
  const clash = await em.execute('select id from teams where contests_id = ? and name = ? and id <> ?', [
    contestId,
    input.name,
    exceptId,
  ]);
  if (clash.length > 0)
    throw new HttpError(409, `Ya existe un equipo llamado "${input.name}" en este concurso.`);
}

/** The current contest's id; 422 when there is none yet (new teams join it, DESIGN.md section 3). */
export async function requireCurrentContestId(em: EntityManager): Promise<number> {
  const contest = await currentContest(em);
  if (!contest)
    throw new HttpError(422, MESSAGES.noCurrentContest, { contests_id: [MESSAGES.noCurrentContest] });
  return contest.id;
}
