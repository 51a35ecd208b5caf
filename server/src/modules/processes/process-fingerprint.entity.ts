import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Process } from './process.entity.js';

/**
 * `process_fingerprints` (issue 14, DESIGN.md section 6 "Renamed programs"): a SHA-256 of an
 * executable learned for a forbidden process, so a renamed copy is still that process. One
 * fingerprint names one process (unique `sha256`: the first process it was learned for keeps it);
 * deleting the process deletes what was learned for it. No `updated_at`: a row never changes.
 */
export const ProcessFingerprint = defineEntity({
  name: 'ProcessFingerprint',
  tableName: 'process_fingerprints',
  properties: {
    id: p.integer().primary().autoincrement(),
    process: () => p.manyToOne(Process).fieldName('processes_id').deleteRule('cascade'),
    sha256: p.string().length(64).columnType('char(64)').unique(),
    createdAt: p
      .datetime()
      .onCreate(() => new Date())
      .defaultRaw('CURRENT_TIMESTAMP'),
  },
});
export type IProcessFingerprint = InferEntity<typeof ProcessFingerprint>;
