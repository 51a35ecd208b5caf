import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import type { ContestProcessRow, ContestRow } from '@concurso/shared';
import { Contest, type IContest } from './contest.entity.js';
import { ContestProcess } from './contest-process.entity.js';
import { Team } from '../teams/team.entity.js';
import { Exercise } from '../exercises/exercise.entity.js';
import { Process } from '../processes/process.entity.js';
import type { Use } from '../catalogs/in-use-message.js';

/*
 * The only place that reads and writes `contests` and `contest_processes` (issue 11), through the
 * EntityManager: every function takes it first, so it runs inside a route's `transaction(em, work)`.
 */

/** A contest as SPEC.md section 7 answers it (`date` is `YYYY-MM-DD`). */
const toRow = (contest: IContest): ContestRow => ({
  id: contest.id,
  calendar: contest.calendar,
  date: contest.date,
});

/** Every contest, oldest (lowest id) first; the web sorts. */
export async function listContests(em: EntityManager): Promise<ContestRow[]> {
  return (await em.find(Contest, {}, { orderBy: { id: 'asc' } })).map(toRow);
}

/** Inserts a contest and answers its row. */
export async function insertContest(em: EntityManager, data: Omit<ContestRow, 'id'>): Promise<ContestRow> {
  const contest = em.create(Contest, data);
  await em.flush();
  return toRow(contest);
}

/** Updates contest `id` and answers its row, or null when it does not exist. */
export async function updateContest(
  em: EntityManager,
  id: number,
  data: Omit<ContestRow, 'id'>,
): Promise<ContestRow | null> {
  const contest = await em.findOne(Contest, id);
  if (!contest) return null;
  em.assign(contest, data);
  await em.flush();
  return toRow(contest);
}

/** The teams and exercises of contest `id`, counted with their nouns: they keep it from being deleted. */
export async function contestUses(em: EntityManager, id: number): Promise<Use[]> {
  return [
    [await em.count(Team, { contest: id }), 'equipo', 'equipos'],
    [await em.count(Exercise, { contest: id }), 'ejercicio', 'ejercicios'],
  ];
}

/** Deletes contest `id` with its blocked set (the contest's own configuration); false when it does not exist. */
export async function deleteContest(em: EntityManager, id: number): Promise<boolean> {
  await em.nativeDelete(ContestProcess, { contest: id });
  return (await em.nativeDelete(Contest, { id })) > 0;
}

/**
 * The current contest (DESIGN.md section 3): the latest `date`, then the highest id; null when there is
 * none. The board shows its teams, new teams join it, agents of other contests' teams stay silent.
 */
export async function currentContest(em: EntityManager): Promise<ContestRow | null> {
  const [contest] = await em.find(Contest, {}, { orderBy: { date: 'desc', id: 'desc' }, limit: 1 });
  return contest ? toRow(contest) : null;
}

/**
 * True when contest `id` exists. With `lock`, its row stays locked until the transaction ends, so two
 * replacements of its blocked set queue instead of interleaving.
 */
export async function contestExists(em: EntityManager, id: number, lock = false): Promise<boolean> {
  const contest = await em.findOne(
    Contest,
    id,
    lock ? { fields: ['id'], lockMode: LockMode.PESSIMISTIC_WRITE } : { fields: ['id'] },
  );
  return contest !== null;
}

/** The blocked set of a contest as SPEC.md section 7 lists it (`processes.name`), by process name. */
export async function contestProcesses(em: EntityManager, contestId: number): Promise<ContestProcessRow[]> {
  const rows = await em.find(
    ContestProcess,
    { contest: contestId },
    { populate: ['process'], orderBy: { process: { name: 'asc' } } },
  );
  return rows.map((row) => ({
    id: row.id,
    contests_id: contestId,
    processes_id: row.process.id,
    processes: { id: row.process.id, name: row.process.name },
  }));
}

/** How many of `processIds` (distinct) are existing processes. */
export async function countProcesses(em: EntityManager, processIds: readonly number[]): Promise<number> {
  return processIds.length === 0 ? 0 : em.count(Process, { id: { $in: [...processIds] } });
}

/** Replaces the blocked set of `contestId` with `processIds` (distinct ids of existing processes). */
export async function replaceContestProcesses(
  em: EntityManager,
  contestId: number,
  processIds: readonly number[],
): Promise<void> {
  await em.nativeDelete(ContestProcess, { contest: contestId });
  for (const processId of processIds) em.create(ContestProcess, { contest: contestId, process: processId });
  await em.flush();
}
