import { defineEntity, p } from '@mikro-orm/core';
import { Team } from '../teams/index.js';
import { ProcessFingerprint } from './process-fingerprint.entity.js';

/**
 * `process_fingerprint_claims` (docs/design.md section 6a): team `teams_id`'s agent reported
 * fingerprint `process_fingerprints_id` with a counted attempt (or the team's agent saw it run and an
 * admin blocked it from `/procesosObservados`). One row per fingerprint and team; `created_at` feeds
 * the per-team rate of new claims. Deleted with its fingerprint or its team. A row never changes.
 */
export const ProcessFingerprintClaim = defineEntity({
  name: 'ProcessFingerprintClaim',
  tableName: 'process_fingerprint_claims',
  properties: {
    id: p.integer().primary().autoincrement(),
    fingerprint: () =>
      p.manyToOne(ProcessFingerprint).fieldName('process_fingerprints_id').deleteRule('cascade'),
    team: () => p.manyToOne(Team).fieldName('teams_id').deleteRule('cascade'),
    createdAt: p
      .datetime()
      .onCreate(() => new Date())
      .defaultRaw('CURRENT_TIMESTAMP'),
  },
  uniques: [{ name: 'process_fingerprint_claims_unique', properties: ['fingerprint', 'team'] }],
});
