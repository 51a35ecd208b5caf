import { defineEntity, p } from '@mikro-orm/core';
import { baseProperties } from '../../db/base-entity.js';
import { Team } from './team.entity.js';
import { User } from '../users/index.js';

/**
 * `team_status_changes`: audit of every block and unblock, with the judge and the time; `automatic`
 * marks the server's own block at the contest's `max_attempts` (no user).
 */
export const TeamStatusChange = defineEntity({
  name: 'TeamStatusChange',
  tableName: 'team_status_changes',
  properties: {
    ...baseProperties,
    team: () => p.manyToOne(Team).fieldName('teams_id').deleteRule('cascade'),
    from: p.tinyint().unsigned().fieldName('from'),
    to: p.tinyint().unsigned().fieldName('to'),
    user: () => p.manyToOne(User).fieldName('users_id').nullable().deleteRule('set null'),
    automatic: p.boolean().default(false),
    /** Kept to the millisecond, so /bitacora orders events of one second. */
    at: p.datetime(3),
  },
});
