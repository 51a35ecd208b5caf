import type { EntityManager } from '@mikro-orm/mysql';
import {
  MESSAGES,
  blockedPermittedConflict,
  calendarOf,
  permittedBlockedConflict,
  type ContestInput,
} from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';
import { describeUses, type Use } from '../catalogs/index.js';
import {
  activeContest,
  blockedAmong,
  contestExists,
  contestProcessIds,
  countContests,
  countProcesses,
  lockContestActive,
  permittedAmong,
  replaceContestProcesses,
  replacePermittedProcesses,
  type ContestData,
} from './contests.repository.js';

/** 404 `MESSAGES.contestNotFound` unless contest `contestId` exists. */
export async function requireContest(em: EntityManager, contestId: number): Promise<void> {
  if (!(await contestExists(em, contestId))) throw new HttpError(404, MESSAGES.contestNotFound);
}

/**
 * The contest a new team or exercise joins (docs/design.md section 3): `contestsId` when the form chose one,
 * else the active contest.
 * @throws HttpError 422 on `contests_id`: `MESSAGES.contestNotFound` for an unknown id;
 *   `MESSAGES.noCurrentContest` when there is no contest yet, `MESSAGES.noActiveContest` when none is
 *   active.
 */
export async function contestIdFor(em: EntityManager, contestsId?: number): Promise<number> {
  if (contestsId !== undefined) {
    if (!(await contestExists(em, contestsId)))
      throw new HttpError(422, MESSAGES.validation, { contests_id: [MESSAGES.contestNotFound] });
    return contestsId;
  }
  const contest = await activeContest(em);
  if (contest) return contest.id;
  const message = (await countContests(em)) === 0 ? MESSAGES.noCurrentContest : MESSAGES.noActiveContest;
  throw new HttpError(422, message, { contests_id: [message] });
}

/**
 * A contest's stored fields: `calendar` derived from the date when missing (docs/design.md section 3),
 * `max_attempts`, `observe_processes`, `capture_screens` and `allowed_sites` as sent (absent: unchanged
 * on update, the column's default on create: no automatic block, observed, screens captured, no network
 * policy).
 */
export function contestData({
  date,
  calendar,
  max_attempts,
  observe_processes,
  capture_screens,
  allowed_sites,
}: Pick<
  ContestInput,
  'date' | 'calendar' | 'max_attempts' | 'observe_processes' | 'capture_screens' | 'allowed_sites'
>): ContestData {
  return {
    date,
    calendar: calendar ?? calendarOf(date),
    max_attempts,
    observe_processes,
    capture_screens,
    allowed_sites,
  };
}

/**
 * Why contest `id` cannot be deleted, or null when it can (in the deletion's transaction):
 * `MESSAGES.activeContestDelete` while it is the active one (its row stays locked, so an
 * activation racing the deletion waits and then finds no contest: 404), else its uses, counted by
 * `uses` once the row is locked (its teams and exercises, declared by the teams and exercises modules):
 * 'No se puede eliminar el concurso: tiene 2 equipos y 1 ejercicio.'. A contest that does not exist:
 * null (the deletion answers 404).
 */
export async function contestInUse(
  em: EntityManager,
  id: number,
  uses: () => Promise<Use[]>,
): Promise<string | null> {
  const active = await lockContestActive(em, id);
  if (active === null) return null;
  if (active) return MESSAGES.activeContestDelete;
  const described = describeUses(await uses());
  return described ? `No se puede eliminar el concurso: tiene ${described}.` : null;
}

/**
 * The two process sets of a contest: `blocked` (ended on the lab machines) and `permitted` («Programas
 * permitidos», docs/design.md section 6a "Fingerprints": their known files make a claimed fingerprint
 * suspect). A program cannot be in both: its known file would make every fingerprint of its own
 * renamed copies suspect.
 */
const PROCESS_SETS = {
  blocked: { replace: replaceContestProcesses, inOther: permittedAmong, conflict: blockedPermittedConflict },
  permitted: {
    replace: replacePermittedProcesses,
    inOther: blockedAmong,
    conflict: permittedBlockedConflict,
  },
} as const;

/**
 * Replaces contest `contestId`'s `set` (`PROCESS_SETS`) with `processIds` (duplicates ignored) in the
 * caller's transaction, holding the contest's row lock so concurrent replacements queue.
 * @throws HttpError 404 when the contest does not exist; 422 on `processes_id` when a process no
 *   longer exists or is in the contest's other set (`blockedPermittedConflict` /
 *   `permittedBlockedConflict`; nothing changes).
 */
export async function replaceProcessSet(
  em: EntityManager,
  contestId: number,
  processIds: number[],
  set: keyof typeof PROCESS_SETS,
): Promise<void> {
  if (!(await contestExists(em, contestId, true))) throw new HttpError(404, MESSAGES.contestNotFound);
  const ids = [...new Set(processIds)];
  if ((await countProcesses(em, ids)) !== ids.length) {
    throw new HttpError(422, MESSAGES.validation, {
      processes_id: ['Alguno de los procesos ya no existe.'],
    });
  }
  const { replace, inOther, conflict } = PROCESS_SETS[set];
  const both = await inOther(em, contestId, ids);
  if (both.length > 0) throw new HttpError(422, MESSAGES.validation, { processes_id: [conflict(both)] });
  await replace(em, contestId, ids);
}

/**
 * Copies contest `fromId`'s blocked set into the new contest `toId` (a term's contest starts
 * with the last one's forbidden programs), in the caller's transaction.
 * @throws HttpError 422 on `copy_from_contests_id` when `fromId` does not exist (nothing is created).
 */
export async function copyBlockedSet(em: EntityManager, fromId: number, toId: number): Promise<void> {
  if (!(await contestExists(em, fromId)))
    throw new HttpError(422, MESSAGES.validation, { copy_from_contests_id: [MESSAGES.contestNotFound] });
  await replaceContestProcesses(em, toId, await contestProcessIds(em, fromId));
}
