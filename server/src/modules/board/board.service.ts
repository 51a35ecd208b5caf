import type { EntityManager } from '@mikro-orm/mysql';
import { LEVELS, TEAM_STATUS, type BoardTeam, type TeamAttempts } from '@concurso/shared';
import { transaction } from '../../db/transaction.js';
import { HttpError } from '../../lib/http-error.js';
import { activeContest } from '../contests/index.js';
import { boardRows, changeTeamStatus, lockTeam } from '../teams/index.js';

/**
 * The snapshot of `GET /api/teamAttempts` (docs/spec.md section 7): the active contest's teams split into
 * `basico`, `intermedio` and `avanzado` by the seeded level ids, each sorted by name; a team of any
 * other level is not listed.
 */
export async function teamAttempts(em: EntityManager): Promise<TeamAttempts> {
  const contest = await activeContest(em);
  const result: TeamAttempts = { contest, basico: [], intermedio: [], avanzado: [] };
  if (!contest) return result;
  for (const team of await boardRows(em, { contestId: contest.id })) {
    if (team.levels_id === LEVELS.basico) result.basico.push(team);
    else if (team.levels_id === LEVELS.intermedio) result.intermedio.push(team);
    else if (team.levels_id === LEVELS.avanzado) result.avanzado.push(team);
  }
  return result;
}

/**
 * Blocks an active team or unblocks a blocked one (docs/spec.md section 4: status 1 ↔ 2) in one transaction
 * that locks the row, bumps `version` and writes the audit row with the judge and time. Returns the
 * new board row, to push once committed.
 * @throws HttpError 404 'No se encontró el equipo.' when the team does not exist.
 */
export async function toggleTeamStatus(
  em: EntityManager,
  teamId: number,
  userId: number,
): Promise<BoardTeam> {
  return transaction(em, async (tem) => {
    const team = await lockTeam(tem, teamId);
    if (!team) throw new HttpError(404, 'No se encontró el equipo.');
    const to = team.statusTeam.id === TEAM_STATUS.active ? TEAM_STATUS.disqualified : TEAM_STATUS.active;
    await changeTeamStatus(tem, { id: team.id, status: team.statusTeam.id }, to, userId);
    return (await boardRows(tem, [teamId]))[0]!;
  });
}
