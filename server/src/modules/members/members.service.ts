import type { EntityManager } from '@mikro-orm/mysql';
import { MESSAGES, type MemberInput, type MemberRow } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';

interface MemberSql {
  id: number;
  code: string;
  name: string;
  semester: number;
  teams_id: number;
  careers_id: number | null;
  career_name: string | null;
  type_participant: string | null;
}

/** A team's members, in the order they were registered. */
export async function listMembers(em: EntityManager, teamId: number): Promise<MemberRow[]> {
  const rows = await em.execute<MemberSql[]>(
    `select m.id, m.code, m.name, m.semester, m.teams_id, m.careers_id, c.name as career_name, m.type_participant
       from members m left join careers c on c.id = m.careers_id where m.teams_id = ? order by m.id`,
    [teamId],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    code: r.code,
    name: r.name,
    semester: Number(r.semester),
    teams_id: Number(r.teams_id),
    careers_id: r.careers_id === null ? null : Number(r.careers_id),
    career: r.careers_id === null ? null : { id: Number(r.careers_id), name: r.career_name ?? '' },
    type_participant: r.type_participant,
  }));
}

/**
 * Saves a list of members in the caller's transaction (SPEC.md section 7 `createMember`): every row
 * names the same existing team and an existing career; no code twice in the list; no code already in
 * another team of the same contest (409 naming it). Answers the team's members afterwards.
 * @throws HttpError 422 (field errors as `<row>.<field>`), 404 (team), 409 (code taken).
 */
export async function saveMembers(em: EntityManager, members: MemberInput[]): Promise<MemberRow[]> {
  const teamIds = new Set(members.map((m) => m.teams_id));
  if (teamIds.size !== 1) {
    throw new HttpError(422, MESSAGES.validation, {
      teams_id: ['Todos los integrantes deben ser del mismo equipo.'],
    });
  }
  const teamId = members[0]!.teams_id;
  const team = await em.execute<Array<{ contests_id: number }>>(
    'select contests_id from teams where id = ? for update',
    [teamId],
  );
  if (!team[0]) throw new HttpError(404, 'No se encontró el equipo.');
  const contestId = Number(team[0].contests_id);

  const errors: Record<string, string[]> = {};
  const careerIds = [...new Set(members.map((m) => m.careers_id))];
  const careers = await em.execute<Array<{ id: number }>>(
    `select id from careers where id in (${careerIds.map(() => '?').join(', ')})`,
    careerIds,
  );
  const knownCareers = new Set(careers.map((c) => Number(c.id)));
  const seen = new Map<string, number>();
  members.forEach((m, i) => {
    if (!knownCareers.has(m.careers_id)) errors[`${i}.careers_id`] = ['La carrera seleccionada no existe.'];
    const code = m.code.toLowerCase();
    if (seen.has(code)) errors[`${i}.code`] = [`El código se repite en la fila ${seen.get(code)! + 1}.`];
    else seen.set(code, i);
  });
  if (Object.keys(errors).length > 0) throw new HttpError(422, MESSAGES.validation, errors);

  const codes = members.map((m) => m.code);
  const taken = await em.execute<Array<{ code: string; team: string }>>(
    `select m.code, t.name as team from members m join teams t on t.id = m.teams_id
      where t.contests_id = ? and m.code in (${codes.map(() => '?').join(', ')})`,
    [contestId, ...codes],
  );
  if (taken[0]) {
    throw new HttpError(
      409,
      `El código ${taken[0].code} ya está registrado en el equipo "${taken[0].team}" de este concurso.`,
    );
  }

  const now = new Date();
  await em.execute(
    `insert into members (code, name, semester, teams_id, careers_id, created_at, updated_at) values ${members
      .map(() => '(?, ?, ?, ?, ?, ?, ?)')
      .join(', ')}`,
    members.flatMap((m) => [m.code, m.name, m.semester, teamId, m.careers_id, now, now]),
  );
  return listMembers(em, teamId);
}
