import type { EntityManager } from '@mikro-orm/mysql';
import { COMMON_FORBIDDEN_PROCESSES } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';

/**
 * Refuses a process name already in the catalogue, ignoring case (the column's
 * `utf8mb4_unicode_ci` collation compares that way, and its unique index backs this up under races).
 * @throws HttpError 409 naming the existing entry.
 */
export async function assertProcessNameFree(em: EntityManager, name: string, exceptId = 0): Promise<void> {
  const rows = await em.execute<Array<{ name: string }>>(
    'select name from processes where name = ? and id <> ?',
    [name, exceptId],
  );
  if (rows[0]) throw new HttpError(409, `Ya existe el proceso "${rows[0].name}".`);
}

/**
 * Adds the ready catalogue of commonly forbidden executables, skipping names already present
 * (ignoring case). Answers how many were added and skipped.
 */
export async function addCommonProcesses(em: EntityManager): Promise<{ added: number; skipped: number }> {
  const now = new Date();
  const placeholders = COMMON_FORBIDDEN_PROCESSES.map(() => '(?, ?, ?)').join(', ');
  const result = await em.execute<{ affectedRows: number }>(
    `insert ignore into processes (name, created_at, updated_at) values ${placeholders}`,
    COMMON_FORBIDDEN_PROCESSES.flatMap((name) => [name, now, now]),
    'run',
  );
  const added = Number(result.affectedRows);
  return { added, skipped: COMMON_FORBIDDEN_PROCESSES.length - added };
}
