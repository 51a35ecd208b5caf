import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/mysql';
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
 * another team of the same contest (409 naming it; the unique (`contests_id`, `code`) index decides
 * when two requests race). Answers the team's members afterwards.
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
  // `latest`: a locking read, which sees rows committed after this transaction's snapshot.
  const takenAnswer = async (latest = false) => {
    const taken = await em.execute<Array<{ code: string; team: string }>>(
      `select m.code, t.name as team from members m join teams t on t.id = m.teams_id
        where m.contests_id = ? and m.code in (${codes.map(() => '?').join(', ')})${latest ? ' lock in share mode' : ''}`,
      [contestId, ...codes],
    );
    return taken[0]
      ? new HttpError(
          409,
          `El código ${taken[0].code} ya está registrado en el equipo "${taken[0].team}" de este concurso.`,
        )
      : null;
  };
  const taken = await takenAnswer();
  if (taken) throw taken;

  const now = new Date();
  try {
    await em.execute(
      `insert into members (code, name, semester, teams_id, contests_id, careers_id, created_at, updated_at) values ${members
        .map(() => '(?, ?, ?, ?, ?, ?, ?, ?)')
        .join(', ')}`,
      members.flatMap((m) => [m.code, m.name, m.semester, teamId, contestId, m.careers_id, now, now]),
    );
  } catch (err) {
    // Two requests raced past the check: the unique (contests_id, code) index refused the second.
    // The first one has committed by now, so the check names the team that holds the code.
    if (err instanceof UniqueConstraintViolationException) throw (await takenAnswer(true)) ?? err;
    throw err;
  }
  return listMembers(em, teamId);
}
