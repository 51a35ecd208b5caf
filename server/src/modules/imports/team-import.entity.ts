import { defineEntity, p } from '@mikro-orm/core';
import { Contest } from '../contests/index.js';
import { User } from '../users/index.js';

/**
 * `team_imports`: one bulk import of teams and members, so it can be undone in one step
 * while none of its teams has attempts. Its teams name it (`teams.team_imports_id`). `teams` and
 * `members` are what it created; `undone_at` is set by the undo, which deletes its teams. Deleted with
 * its contest; its user may be deleted (null).
 */
export const TeamImport = defineEntity({
  name: 'TeamImport',
  tableName: 'team_imports',
  properties: {
    id: p.integer().primary().autoincrement(),
    contest: () => p.manyToOne(Contest).fieldName('contests_id').deleteRule('cascade'),
    user: () => p.manyToOne(User).fieldName('users_id').nullable().deleteRule('set null'),
    fileName: p.string().length(255).fieldName('file_name'),
    teams: p.integer().unsigned(),
    members: p.integer().unsigned(),
    createdAt: p
      .datetime(3)
      .fieldName('created_at')
      .onCreate(() => new Date()),
    undoneAt: p.datetime(3).nullable().fieldName('undone_at'),
  },
});
