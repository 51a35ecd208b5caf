import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from '../../db/base-entity.js';
import { Team } from '../teams/index.js';
import { Career } from '../careers/index.js';
import { Contest } from '../contests/index.js';

/**
 * `members`: a team's participants; `careers_id` null shows 'Sin carrera'. Deleted with their team.
 * `contests_id` repeats the team's contest so a unique index keeps a student code once per contest.
 */
export const Member = defineEntity({
  name: 'Member',
  tableName: 'members',
  properties: {
    ...baseProperties,
    code: p.string().length(50),
    name: p.string().length(255),
    semester: p.tinyint().unsigned(),
    team: () => p.manyToOne(Team).fieldName('teams_id').deleteRule('cascade'),
    contest: () => p.manyToOne(Contest).fieldName('contests_id').deleteRule('restrict'),
    career: () => p.manyToOne(Career).fieldName('careers_id').nullable().deleteRule('restrict'),
    type_participant: p.string().length(50).nullable().fieldName('type_participant'),
  },
  uniques: [{ properties: ['contest', 'code'], name: 'members_contests_id_code_unique' }],
});
export type IMember = InferEntity<typeof Member>;
