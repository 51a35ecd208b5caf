import { defineEntity, p } from '@mikro-orm/core';
import { baseProperties } from '../../db/base-entity.js';
import { Contest } from '../contests/index.js';
import { User } from '../users/index.js';
import { Process } from '../processes/index.js';

/**
 * `process_fingerprints` (docs/design.md section 6a "Fingerprints"): a
 * SHA-256 of an executable claimed, in one contest, to be one of its blocked processes, so a renamed
 * copy is still that process. It applies to the machines of the teams that claimed it
 * (`process_fingerprint_claims`), and to every machine of the contest once `confirmed` by an admin or
 * claimed by `FINGERPRINT_QUORUM` teams. One row per (contest, process, hash): the same hash may be
 * claimed for two processes, and no claim owns a hash. `updated_at` is its last new claim. Deleted
 * with its contest or process.
 */
export const ProcessFingerprint = defineEntity({
  name: 'ProcessFingerprint',
  tableName: 'process_fingerprints',
  properties: {
    ...baseProperties,
    contest: () => p.manyToOne(Contest).fieldName('contests_id').deleteRule('cascade'),
    process: () => p.manyToOne(Process).fieldName('processes_id').deleteRule('cascade'),
    sha256: p.string().length(64).columnType('char(64)'),
    /** Similarity digest of the file (`similarityDigestSchema`), null when no agent reported one. */
    tlsh: p.string().length(148).nullable(),
    /** ELF build-id of the file (`buildIdSchema`), null when none was reported. */
    buildId: p.string().length(64).fieldName('build_id').nullable(),
    confirmed: p.boolean().default(false),
    confirmedBy: () => p.manyToOne(User).fieldName('confirmed_by').nullable().deleteRule('set null'),
    confirmedAt: p.datetime().nullable(),
  },
  uniques: [{ name: 'process_fingerprints_unique', properties: ['contest', 'process', 'sha256'] }],
});
