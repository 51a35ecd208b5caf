import type { EntityManager } from '@mikro-orm/mysql';
import type { AgentFingerprint } from '@concurso/shared';
import { ProcessFingerprint } from './process-fingerprint.entity.js';

/*
 * The only reads and writes of `process_fingerprints` (issue 14): the SHA-256 learned for each
 * forbidden process. A fingerprint already known keeps its first process (`insert ignore` on the
 * unique `sha256`), so two processes never claim one executable.
 */

/** A fingerprint reported for a process name: `sha256` (64 lower-case hex digits) seen as `process`. */
export interface FingerprintSighting {
  process: string;
  sha256: string;
}

/**
 * Learns `sightings` in one statement: each `sha256` for the catalogue's process named `process`
 * (compared without case by the column's collation), when such a process exists; a sighting of an
 * unknown name teaches nothing, and a fingerprint already known keeps its process. Answers how many
 * were new. SQL text because it runs on the attempts path (bench/BENCHMARKS.md, "Capacity of the
 * attempts path"): one `insert ignore … select` instead of a read of the processes and an insert.
 */
export async function learnFingerprints(
  em: EntityManager,
  sightings: readonly FingerprintSighting[],
  now = new Date(),
): Promise<number> {
  if (sightings.length === 0) return 0;
  // One `select` per sighting, compared straight against the column (its collation decides case).
  const selects = sightings.map(() => 'select id, ?, ? from processes where name = ?').join(' union all ');
  const result = await em.execute<{ affectedRows: number }>(
    `insert ignore into process_fingerprints (processes_id, sha256, created_at) ${selects}`,
    sightings.flatMap((s) => [s.sha256, now, s.process]),
    'run',
  );
  return result.affectedRows;
}

/**
 * Learns `sha256` for process `processId`; no change when the fingerprint is known already (for this
 * process or another). Answers whether it was new.
 */
export async function learnFingerprint(
  em: EntityManager,
  processId: number,
  sha256: string,
): Promise<boolean> {
  const result = await em
    .createQueryBuilder(ProcessFingerprint)
    .insert({ process: processId, sha256, createdAt: new Date() })
    .onConflict()
    .ignore()
    .execute('run');
  return result.affectedRows > 0;
}

/**
 * The fingerprints learned for the processes `processIds` as the agent's config carries them,
 * `[{process: <its name>, sha256}]`, by process name, then fingerprint.
 */
export async function fingerprintsOf(
  em: EntityManager,
  processIds: readonly number[],
): Promise<AgentFingerprint[]> {
  if (processIds.length === 0) return [];
  const rows = await em.find(
    ProcessFingerprint,
    { process: { $in: [...processIds] } },
    { populate: ['process'], orderBy: { process: { name: 'asc' }, sha256: 'asc' } },
  );
  return rows.map((row) => ({ process: row.process.name, sha256: row.sha256 }));
}
