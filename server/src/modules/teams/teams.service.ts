import type { EntityManager } from '@mikro-orm/mysql';
import { MESSAGES } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';
import { currentContest } from '../contests/contests.repository.js';

/**
 * The current contest's id, which new teams and exercises join (DESIGN.md section 3); 422 on
 * `contests_id` when there is no contest yet.
 */
export async function requireCurrentContestId(em: EntityManager): Promise<number> {
  const contest = await currentContest(em);
  if (!contest)
    throw new HttpError(422, MESSAGES.noCurrentContest, { contests_id: [MESSAGES.noCurrentContest] });
  return contest.id;
}
