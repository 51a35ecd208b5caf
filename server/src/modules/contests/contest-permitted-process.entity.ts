import { defineEntity, p } from '@mikro-orm/core';
import { baseProperties } from '../../db/base-entity.js';
import { Contest } from './contest.entity.js';
import { Process } from '../processes/index.js';

/**
 * `contest_permitted_processes`: «Programas permitidos» of a contest (docs/design.md section 6a
 * "Fingerprints"), catalogue processes it allows (the IDE, compilers, the browser). A claimed
 * fingerprint that matches a permitted program's known file is never applied. Deleted with its
 * contest or its process.
 */
export const ContestPermittedProcess = defineEntity({
  name: 'ContestPermittedProcess',
  tableName: 'contest_permitted_processes',
  properties: {
    ...baseProperties,
    contest: () => p.manyToOne(Contest).fieldName('contests_id').deleteRule('cascade'),
    process: () => p.manyToOne(Process).fieldName('processes_id').deleteRule('cascade'),
  },
  uniques: [{ properties: ['contest', 'process'] }],
});
