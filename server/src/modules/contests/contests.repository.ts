import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import type { ContestProcessRow, ContestRow } from '@concurso/shared';
import { Contest, type IContest } from './contest.entity.js';
import { ContestPermittedProcess } from './contest-permitted-process.entity.js';
import { ContestProcess } from './contest-process.entity.js';
import { ContestNetworkChange } from './contest-network-change.entity.js';
import { Process } from '../processes/index.js';
import { appendRowToChain, dropChain, lockChainHead } from '../chain/index.js';
import type { CatalogUsage } from '../catalogs/index.js';

/*
 * The only place that reads and writes `contests` and `contest_processes`, through the
 * EntityManager: every function takes it first, so it runs inside a route's `transaction(em, work)`.
 */

/** A contest as docs/spec.md section 7 answers it (`date` is `YYYY-MM-DD`) with `active` and `max_attempts`. */
export const contestRow = (contest: IContest): ContestRow => ({
  id: contest.id,
  calendar: contest.calendar,
  date: contest.date,
  active: contest.activeKey === 1,
  max_attempts: contest.maxAttempts ?? null,
  observe_processes: contest.observeProcesses,
  capture_screens: contest.captureScreens,
  allowed_sites: contest.allowedSites ?? [],
  network_version: contest.networkVersion,
});

/** A contest's stored fields, as the routes give them. */
export type ContestData = Pick<ContestRow, 'calendar' | 'date'> & {
  max_attempts?: number | null;
  observe_processes?: boolean;
  capture_screens?: boolean;
  /** The allowed sites (stored form); absent: unchanged. */
  allowed_sites?: string[];
};

/**
 * The entity's properties for `data` (`max_attempts`, `observe_processes` or `capture_screens` absent:
 * unchanged).
 */
const toEntityData = ({ calendar, date, max_attempts, observe_processes, capture_screens }: ContestData) => ({
  calendar,
  date,
  ...(max_attempts === undefined ? {} : { maxAttempts: max_attempts }),
  ...(observe_processes === undefined ? {} : { observeProcesses: observe_processes }),
  ...(capture_screens === undefined ? {} : { captureScreens: capture_screens }),
});

/** How many contests exist. */
export async function countContests(em: EntityManager): Promise<number> {
  return em.count(Contest, {});
}

/** Every contest, oldest (lowest id) first; the web sorts. */
export async function listContests(em: EntityManager): Promise<ContestRow[]> {
  return (await em.find(Contest, {}, { orderBy: { id: 'asc' } })).map(contestRow);
}

/**
 * Inserts a contest and answers its row. The very first contest becomes the active one (docs/design.md
 * section 3); any later one is created inactive. Run it in a transaction: the check and the insert go
 * together (two first contests racing: the unique `active_key` refuses the second with 409, and the
 * admin saves it again as an inactive one).
 */
export async function insertContest(
  em: EntityManager,
  data: ContestData,
  staffId: number | null = null,
): Promise<ContestRow> {
  const first = (await em.count(Contest, {})) === 0;
  const contest = em.create(Contest, { ...toEntityData(data), activeKey: first ? 1 : null });
  const change =
    data.allowed_sites !== undefined ? setAllowedSites(em, contest, data.allowed_sites, staffId) : null;
  await em.flush();
  await chainNetworkChange(em, change);
  return contestRow(contest);
}

/** Updates contest `id` and answers its row, or null when it does not exist. */
export async function updateContest(
  em: EntityManager,
  id: number,
  data: ContestData,
  staffId: number | null = null,
): Promise<ContestRow | null> {
  // Locked: two changes of the allowed sites at once get two versions, never one twice.
  if (data.allowed_sites !== undefined && !(await lockHeadOf(em, id))) return null;
  const contest = await lockContest(em, id);
  if (!contest) return null;
  em.assign(contest, toEntityData(data));
  const change =
    data.allowed_sites !== undefined ? setAllowedSites(em, contest, data.allowed_sites, staffId) : null;
  await em.flush();
  await chainNetworkChange(em, change);
  return contestRow(contest);
}

/**
 * Contest `id` read again from the database and its row locked until the transaction ends (a stale copy
 * in the identity map would bump `network_version` from an old value, as it once did); null when none.
 */
function lockContest(em: EntityManager, id: number): Promise<IContest | null> {
  return em.findOne(Contest, id, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/**
 * Locks contest `id`'s chain head before its row (modules/chain/README.md: the head before the contest
 * row, as the attempts' group commit, holding the head, waits for the contest row's shared lock of
 * its foreign key); false when the contest does not exist (no head is made for it).
 */
async function lockHeadOf(em: EntityManager, id: number): Promise<boolean> {
  if ((await em.count(Contest, { id })) === 0) return false;
  await lockChainHead(em, id);
  return true;
}

/** Chains a change of the allowed sites (`setAllowedSites`'s row, flushed) to its contest's log. */
async function chainNetworkChange(em: EntityManager, change: { id: number } | null): Promise<void> {
  if (change) await appendRowToChain(em, 'red', change.id);
}

/**
 * Gives `contest` the allowed sites `sites` (stored form) when they differ from its own
 * (order included: the admin's order is the list's), with the next `network_version` and a row of
 * `contest_network_changes` by `staffId` (the contest's log), which it answers (null: no change).
 * Flushed by the caller, who then chains the row (`chainNetworkChange`).
 */
function setAllowedSites(
  em: EntityManager,
  contest: IContest,
  sites: string[],
  staffId: number | null,
): { id: number } | null {
  const before = contest.allowedSites ?? [];
  if (before.length === sites.length && before.every((site, i) => site === sites[i])) return null;
  contest.allowedSites = sites;
  contest.networkVersion += 1;
  return em.create(ContestNetworkChange, {
    contest,
    user: staffId,
    version: contest.networkVersion,
    allowedSites: sites,
    at: new Date(),
  });
}

/**
 * `POST /api/updateAllowedSites`: replaces contest `id`'s allowed sites as `setAllowedSites`
 * does, holding its row lock; answers its row, or null when it does not exist.
 */
export async function updateAllowedSites(
  em: EntityManager,
  id: number,
  sites: string[],
  staffId: number | null,
): Promise<ContestRow | null> {
  if (!(await lockHeadOf(em, id))) return null;
  const contest = await lockContest(em, id);
  if (!contest) return null;
  const change = setAllowedSites(em, contest, sites, staffId);
  await em.flush();
  await chainNetworkChange(em, change);
  return contestRow(contest);
}

/** Deletes contest `id` with its blocked set (the contest's own configuration); false when it does not exist. */
export async function deleteContest(em: EntityManager, id: number): Promise<boolean> {
  await em.nativeDelete(ContestProcess, { contest: id });
  const deleted = (await em.nativeDelete(Contest, { id })) > 0;
  if (deleted) await dropChain(em, id);
  return deleted;
}

/**
 * The active contest (docs/design.md section 3), or null when none is active. The boards show its teams,
 * new teams and exercises default to it, and only its teams' agents get a blocked set.
 */
export async function activeContest(em: EntityManager): Promise<ContestRow | null> {
  const contest = await em.findOne(Contest, { activeKey: 1 });
  return contest ? contestRow(contest) : null;
}

/**
 * Makes contest `id` the only active one, in the caller's transaction; answers its row, or null when it
 * does not exist (nothing changes). The previous active row is cleared first: the unique `active_key`
 * admits one 1.
 */
export async function activateContest(em: EntityManager, id: number): Promise<ContestRow | null> {
  const contest = await lockContest(em, id);
  if (!contest) return null;
  if (contest.activeKey !== 1) {
    await em.nativeUpdate(Contest, { activeKey: 1 }, { activeKey: null });
    contest.activeKey = 1;
    await em.flush();
  }
  return contestRow(contest);
}

/**
 * Whether contest `id` is the active one, read with its row locked until the transaction ends (null
 * when it does not exist). `activateContest` takes the same lock, so an activation and a deletion of
 * one contest queue instead of both passing their checks.
 */
export async function lockContestActive(em: EntityManager, id: number): Promise<boolean | null> {
  const contest = await em.findOne(Contest, id, {
    fields: ['id', 'activeKey'],
    lockMode: LockMode.PESSIMISTIC_WRITE,
    refresh: true,
  });
  return contest ? contest.activeKey === 1 : null;
}

/** True when contest `id` is the active one. */
export async function isActiveContest(em: EntityManager, id: number): Promise<boolean> {
  return (await em.count(Contest, { id, activeKey: 1 })) > 0;
}

/** Contest `id`'s row when given (null when it does not exist), else the active one (null when none is). */
export async function contestOrActive(em: EntityManager, id?: number): Promise<ContestRow | null> {
  if (id === undefined) return activeContest(em);
  const contest = await em.findOne(Contest, id);
  return contest ? contestRow(contest) : null;
}

/**
 * True when contest `id` exists. With `lock`, its row stays locked until the transaction ends, so two
 * replacements of its blocked set queue instead of interleaving. Reads a bare row, never an entity:
 * a contest half-loaded into the identity map (only its id) was later embedded in a team's answer
 * without its calendar (every team edit answered 500).
 */
export async function contestExists(em: EntityManager, id: number, lock = false): Promise<boolean> {
  const query = em.createQueryBuilder(Contest).select('id').where({ id });
  if (lock) query.setLockMode(LockMode.PESSIMISTIC_WRITE);
  return (await query.execute('get', false)) !== undefined;
}

/** The blocked set of a contest as docs/spec.md section 7 lists it (`processes.name`), by process name. */
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

/** The process ids of contest `contestId`'s blocked set (to copy it into a new contest). */
export async function contestProcessIds(em: EntityManager, contestId: number): Promise<number[]> {
  const rows = await em.find(ContestProcess, { contest: contestId }, { fields: ['process'] });
  return rows.map((row) => row.process.id);
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

/**
 * Adds process `processId` to contest `contestId`'s blocked set when it is not there yet
 * ("Bloquear" on `/procesosObservados`): one `insert ignore` on the set's unique (contest, process), so
 * a second call, or two at once, change nothing. Answers whether it was added.
 */
export async function addContestProcess(
  em: EntityManager,
  contestId: number,
  processId: number,
): Promise<boolean> {
  const now = new Date();
  const result = await em
    .createQueryBuilder(ContestProcess)
    .insert({ contest: contestId, process: processId, createdAt: now, updatedAt: now })
    .onConflict()
    .ignore()
    .execute('run');
  return result.affectedRows > 0;
}

/**
 * Contest `contestId`'s «Programas permitidos» (docs/design.md section 6a "Fingerprints"), by process name,
 * in the blocked set's row shape.
 */
export async function contestPermittedProcesses(
  em: EntityManager,
  contestId: number,
): Promise<ContestProcessRow[]> {
  const rows = await em.find(
    ContestPermittedProcess,
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

/** The names of the processes of `processIds` that are in contest `contestId`'s blocked set. */
export async function blockedAmong(
  em: EntityManager,
  contestId: number,
  processIds: readonly number[],
): Promise<string[]> {
  if (processIds.length === 0) return [];
  const rows = await em.find(
    ContestProcess,
    { contest: contestId, process: { $in: [...processIds] } },
    { populate: ['process'], orderBy: { process: { name: 'asc' } } },
  );
  return rows.map((row) => row.process.name);
}

/** Replaces the «Programas permitidos» of `contestId` with `processIds` (distinct ids of existing processes). */
export async function replacePermittedProcesses(
  em: EntityManager,
  contestId: number,
  processIds: readonly number[],
): Promise<void> {
  await em.nativeDelete(ContestPermittedProcess, { contest: contestId });
  for (const processId of processIds)
    em.create(ContestPermittedProcess, { contest: contestId, process: processId });
  await em.flush();
}

/** The names of the processes of `processIds` that are in contest `contestId`'s «Programas permitidos». */
export async function permittedAmong(
  em: EntityManager,
  contestId: number,
  processIds: readonly number[],
): Promise<string[]> {
  if (processIds.length === 0) return [];
  const rows = await em.find(
    ContestPermittedProcess,
    { contest: contestId, process: { $in: [...processIds] } },
    { populate: ['process'], orderBy: { process: { name: 'asc' } } },
  );
  return rows.map((row) => row.process.name);
}

/**
 * The processes of a contest's blocked set, which it keeps from being deleted (the 409 "in use": 'N
 * concurso(s)'). Handed to the processes catalogue by app.ts (`catalogUsages`).
 */
export const contestUsages: readonly CatalogUsage[] = [
  {
    catalog: 'processes',
    one: 'concurso',
    many: 'concursos',
    count: (em, id) => em.count(ContestProcess, { process: id }),
  },
];
