import { defineEntity, p } from '@mikro-orm/core';
import { User } from '../users/index.js';
import { Contest } from './contest.entity.js';
import { StringListType } from '../../db/string-list-type.js';

/**
 * `contest_network_changes`: each change of a contest's allowed sites, for its log: the
 * version it made, the list it set (empty: the policy lifted), who (null once the account is deleted)
 * and when. Deleted with the contest.
 */
export const ContestNetworkChange = defineEntity({
  name: 'ContestNetworkChange',
  tableName: 'contest_network_changes',
  properties: {
    id: p.integer().primary().autoincrement(),
    contest: () => p.manyToOne(Contest).fieldName('contests_id').deleteRule('cascade'),
    user: () => p.manyToOne(User).fieldName('users_id').nullable().deleteRule('set null'),
    version: p.integer().unsigned(),
    allowedSites: p.type(StringListType).$type<string[], string>().fieldName('allowed_sites'),
    at: p.datetime(3),
  },
  indexes: [{ properties: ['contest', 'at'] }],
});
