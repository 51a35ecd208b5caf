import type { EntityManager } from '@mikro-orm/mysql';
import { COMMON_FORBIDDEN_PROCESSES, type ProcessInput, type ProcessRow } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';
import { catalogRows } from '../catalogs/index.js';
import { Process, type IProcess } from './process.entity.js';

/**
 * Refuses a process name already in the catalogue other than row `exceptId`, ignoring case (the
 * column's `utf8mb4_unicode_ci` collation compares that way, and its unique index backs this up
 * under races).
 * @throws HttpError 409 naming the existing entry.
 */
async function assertProcessNameFree(em: EntityManager, name: string, exceptId: number): Promise<void> {
  const clash = await em.findOne(Process, { name, id: { $ne: exceptId } });
  if (clash) throw new HttpError(409, `Ya existe el proceso "${clash.name}".`);
}

/**
 * The only reads and writes of `processes` (the forbidden executables, docs/spec.md section 3): names
 * unique ignoring case (409); a process in a contest's blocked set (`contest_processes`) stays (the
 * contests module counts them).
 */
export const processRows = catalogRows<IProcess, ProcessRow, ProcessInput>(Process, {
  toRow: ({ id, name }) => ({ id, name }),
  toData: async (em, input, id) => {
    await assertProcessNameFree(em, input.name, id ?? 0);
    return input;
  },
});

/**
 * Adds the ready catalogue of commonly forbidden executables (`COMMON_FORBIDDEN_PROCESSES`) in one
 * `insert ignore`, so names already present (ignoring case, by the unique index) are skipped even
 * when two admins press the button at once. Answers how many were added and skipped.
 */
export async function addCommonProcesses(em: EntityManager): Promise<{ added: number; skipped: number }> {
  const now = new Date();
  const result = await em
    .createQueryBuilder(Process)
    .insert(COMMON_FORBIDDEN_PROCESSES.map((name) => ({ name, createdAt: now, updatedAt: now })))
    .onConflict()
    .ignore()
    .execute('run');
  return { added: result.affectedRows, skipped: COMMON_FORBIDDEN_PROCESSES.length - result.affectedRows };
}

/**
 * The catalogue's process named `name` (compared without case: the column's collation), created when
 * missing ("Bloquear" on `/procesosObservados`). An `insert ignore` then a read, so two
 * admins blocking the same new name at once both get the one row. Answers it as the catalogue has
 * it and whether this call created it.
 */
export async function findOrCreateProcess(
  em: EntityManager,
  name: string,
): Promise<{ id: number; name: string; created: boolean }> {
  const now = new Date();
  const result = await em
    .createQueryBuilder(Process)
    .insert({ name, createdAt: now, updatedAt: now })
    .onConflict()
    .ignore()
    .execute('run');
  const process = await em.findOneOrFail(Process, { name });
  return { id: process.id, name: process.name, created: result.affectedRows > 0 };
}

/** Process `id` as the catalogue lists it (`{id, name}`), or null when there is none. */
export async function processById(em: EntityManager, id: number): Promise<ProcessRow | null> {
  const process = await em.findOne(Process, id);
  return process ? { id: process.id, name: process.name } : null;
}
