import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/mysql';
import type { MemberInput, MemberRow } from '@concurso/shared';
import { HttpError, fieldError, validationError } from '../../lib/http-error.js';
import {
  existingCareerIds,
  findTakenCodes,
  insertMembers,
  listMemberRows,
  lockTeamContest,
  moveTeamMembers,
  teamMemberCodes,
} from './members.repository.js';

/** The 409 for a student code already in a team of the contest, naming that team, or null. */
async function codeTaken(
  em: EntityManager,
  contestId: number,
  codes: string[],
  latest = false,
): Promise<HttpError | null> {
  const [taken] = await findTakenCodes(em, contestId, codes, latest);
  return taken
    ? new HttpError(
        409,
        `El código ${taken.code} ya está registrado en el equipo "${taken.team}" de este concurso.`,
      )
    : null;
}

/**
 * Saves a list of members in the caller's transaction (docs/spec.md section 7 `createMember`): every row
 * names the same existing team and an existing career; no code twice in the list; no code already in
 * another team of the same contest (409 naming it; the unique (`contests_id`, `code`) index decides
 * when two requests race). Answers the team's members afterwards.
 * @throws HttpError 422 (field errors as `<row>.<field>`), 404 (team), 409 (code taken).
 */
export async function saveMembers(em: EntityManager, members: MemberInput[]): Promise<MemberRow[]> {
  const teamIds = new Set(members.map((m) => m.teams_id));
  if (teamIds.size !== 1) throw fieldError('teams_id', 'Todos los integrantes deben ser del mismo equipo.');
  const teamId = members[0]!.teams_id;
  const contestId = await lockTeamContest(em, teamId);
  if (contestId === null) throw new HttpError(404, 'No se encontró el equipo.');

  const errors: Record<string, string[]> = {};
  const knownCareers = await existingCareerIds(em, [...new Set(members.map((m) => m.careers_id))]);
  const seen = new Map<string, number>();
  members.forEach((m, i) => {
    if (!knownCareers.has(m.careers_id)) errors[`${i}.careers_id`] = ['La carrera seleccionada no existe.'];
    const code = m.code.toLowerCase();
    if (seen.has(code)) errors[`${i}.code`] = [`El código se repite en la fila ${seen.get(code)! + 1}.`];
    else seen.set(code, i);
  });
  if (Object.keys(errors).length > 0) throw validationError(errors);

  const codes = members.map((m) => m.code);
  const taken = await codeTaken(em, contestId, codes);
  if (taken) throw taken;
  try {
    await insertMembers(em, contestId, members);
  } catch (err) {
    // Two requests raced past the check: the unique (contests_id, code) index refused the second.
    // The first one has committed by now, so a locking read names the team that holds the code.
    if (err instanceof UniqueConstraintViolationException)
      throw (await codeTaken(em, contestId, codes, true)) ?? err;
    throw err;
  }
  return listMemberRows(em, teamId);
}

/**
 * Takes team `teamId`'s members along when the team moves to contest `contestId` (`updateTeam`; app.ts
 * hands this to the teams module), in the update's transaction: a student code is once per contest.
 * @throws HttpError 409 naming a code already in that contest and its team (nothing moves).
 */
export async function moveMembersWithTeam(
  em: EntityManager,
  teamId: number,
  contestId: number,
): Promise<void> {
  const [taken] = await findTakenCodes(em, contestId, await teamMemberCodes(em, teamId), true);
  if (taken)
    throw new HttpError(
      409,
      `El código ${taken.code} ya está registrado en ese concurso (equipo "${taken.team}").`,
    );
  await moveTeamMembers(em, teamId, contestId);
}
