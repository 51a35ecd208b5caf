import { defineEntity, p } from '@mikro-orm/core';
import { Contest } from '../contests/index.js';
import { User } from '../users/index.js';
import { Process } from '../processes/index.js';

/**
 * `process_fingerprint_denials` (docs/design.md section 6a "Fingerprints"): SHA-256 `sha256` was removed by
 * an admin in contest `contests_id`, so it is denied there under every process name: claims of it are
 * ignored (not recorded, not counted to quorum, not applied even to the claimant's machines) until an
 * admin confirms it again, which deletes the row. `processes_id` is the process it was removed from
 * (null once that process is deleted), `denied_by` the admin. One row per contest and hash; deleted
 * with its contest.
 */
export const ProcessFingerprintDenial = defineEntity({
  name: 'ProcessFingerprintDenial',
  tableName: 'process_fingerprint_denials',
  properties: {
    id: p.integer().primary().autoincrement(),
    contest: () => p.manyToOne(Contest).fieldName('contests_id').deleteRule('cascade'),
    sha256: p.string().length(64).columnType('char(64)'),
    process: () => p.manyToOne(Process).fieldName('processes_id').nullable().deleteRule('set null'),
    deniedBy: () => p.manyToOne(User).fieldName('denied_by').nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ name: 'process_fingerprint_denials_unique', properties: ['contest', 'sha256'] }],
});
