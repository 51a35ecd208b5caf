import { defineEntity, p } from '@mikro-orm/core';
import { baseProperties } from '../../db/base-entity.js';
import { Contest } from './contest.entity.js';
import { Process } from '../processes/index.js';

/** `contest_processes`: the blocked set of a contest. */
export const ContestProcess = defineEntity({
  name: 'ContestProcess',
  tableName: 'contest_processes',
  properties: {
    ...baseProperties,
    contest: () => p.manyToOne(Contest).fieldName('contests_id').deleteRule('restrict'),
    process: () => p.manyToOne(Process).fieldName('processes_id').deleteRule('restrict'),
  },
  uniques: [{ properties: ['contest', 'process'] }],
});
