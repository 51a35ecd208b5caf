import type { EntityManager } from '@mikro-orm/mysql';
import { MESSAGES, type ContestProcessRow } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';

/** The blocked set of a contest as SPEC.md section 7 lists it (`processes.name`), by process name. */
export async function contestProcesses(em: EntityManager, contestId: number): Promise<ContestProcessRow[]> {
  const rows = await em.execute<Array<{ id: number; processes_id: number; name: string }>>(
    `select cp.id, cp.processes_id, p.name from contest_processes cp
       join processes p on p.id = cp.processes_id where cp.contests_id = ? order by p.name`,
    [contestId],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    contests_id: contestId,
    processes_id: Number(r.processes_id),
    processes: { id: Number(r.processes_id), name: r.name },
  }));
}

/** 404 unless the contest exists. */
export async function requireContest(em: EntityManager, contestId: number): Promise<void> {
  const rows = await em.execute('select id from contests where id = ?', [contestId]);
  if (rows.length === 0) throw new HttpError(404, 'No se encontró el concurso.');
}

/**
 * Replaces a contest's blocked set with `processIds` (duplicates ignored) in the caller's
 * transaction. Unknown process ids answer 422 on `processes_id` and change nothing.
 */
export async function replaceBlockedSet(
  em: EntityManager,
  contestId: number,
  processIds: number[],
): Promise<void> {
  await em.execute('select id from contests where id = ? for update', [contestId]);
  const ids = [...new Set(processIds)];
  if (ids.length > 0) {
    const found = await em.execute<Array<{ id: number }>>(
      `select id from processes where id in (${ids.map(() => '?').join(', ')})`,
      ids,
    );
    if (found.length !== ids.length) {
      throw new HttpError(422, MESSAGES.validation, {
        processes_id: ['Alguno de los procesos ya no existe.'],
      });
    }
  }
  await em.execute('delete from contest_processes where contests_id = ?', [contestId]);
  if (ids.length > 0) {
    const now = new Date();
    await em.execute(
      `insert into contest_processes (contests_id, processes_id, created_at, updated_at) values ${ids
        .map(() => '(?, ?, ?, ?)')
        .join(', ')}`,
      ids.flatMap((id) => [contestId, id, now, now]),
    );
  }
}
