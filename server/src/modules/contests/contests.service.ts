import type { EntityManager } from '@mikro-orm/mysql';
import { MESSAGES, calendarOf, type ContestInput, type ContestRow } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';
import { describeUses } from '../catalogs/in-use-message.js';
import {
  contestExists,
  contestUses,
  countProcesses,
  currentContest,
  replaceContestProcesses,
} from './contests.repository.js';

/** 404 'No se encontró el concurso.' unless contest `contestId` exists. */
export async function requireContest(em: EntityManager, contestId: number): Promise<void> {
  if (!(await contestExists(em, contestId))) throw new HttpError(404, 'No se encontró el concurso.');
}

/**
 * The current contest's id (DESIGN.md section 3: new teams and exercises join it).
 * @throws HttpError 422 `MESSAGES.noCurrentContest` on `contests_id` when there is no contest yet.
 */
export async function requireCurrentContestId(em: EntityManager): Promise<number> {
  const contest = await currentContest(em);
  if (!contest)
    throw new HttpError(422, MESSAGES.noCurrentContest, { contests_id: [MESSAGES.noCurrentContest] });
  return contest.id;
}

/** A contest's stored fields: `calendar` derived from the date when missing (DESIGN.md section 3). */
export function contestData({ date, calendar }: ContestInput): Omit<ContestRow, 'id'> {
  return { date, calendar: calendar ?? calendarOf(date) };
}

/**
 * Why contest `id` cannot be deleted ('No se puede eliminar el concurso: tiene 2 equipos y 1
 * ejercicio.'), or null when no team or exercise belongs to it.
 */
export async function contestInUse(em: EntityManager, id: number): Promise<string | null> {
  const described = describeUses(await contestUses(em, id));
  return described ? `No se puede eliminar el concurso: tiene ${described}.` : null;
}

/**
 * Replaces a contest's blocked set with `processIds` (duplicates ignored) in the caller's transaction,
 * holding the contest's row lock so concurrent replacements queue.
 * @throws HttpError 404 when the contest does not exist; 422 on `processes_id` when a process no
 *   longer exists (nothing changes).
 */
export async function replaceBlockedSet(
  em: EntityManager,
  contestId: number,
  processIds: number[],
): Promise<void> {
  if (!(await contestExists(em, contestId, true))) throw new HttpError(404, 'No se encontró el concurso.');
  const ids = [...new Set(processIds)];
  if ((await countProcesses(em, ids)) !== ids.length) {
    throw new HttpError(422, MESSAGES.validation, {
      processes_id: ['Alguno de los procesos ya no existe.'],
    });
  }
  await replaceContestProcesses(em, contestId, ids);
}
