import { defineEntity, p } from '@mikro-orm/core';
import { Contest } from '../contests/index.js';
import { User } from '../users/index.js';

/**
 * `messages`: a text a judge or admin sent to teams of the active contest: its target (a
 * `MessageTarget`) as a label ('Equipo Los Punteros'), the sender (null once deleted), when, and until
 * when an agent that was offline still gets it. Its teams are its receipts. Deleted with the contest.
 */
export const Message = defineEntity({
  name: 'Message',
  tableName: 'messages',
  properties: {
    id: p.integer().primary().autoincrement(),
    contest: () => p.manyToOne(Contest).fieldName('contests_id').deleteRule('cascade'),
    user: () => p.manyToOne(User).fieldName('users_id').nullable().deleteRule('set null'),
    target: p.string().length(16),
    targetLabel: p.string().length(300).fieldName('target_label'),
    text: p.string().length(500),
    createdAt: p.datetime(3).fieldName('created_at'),
    expiresAt: p.datetime(3).fieldName('expires_at'),
  },
  indexes: [{ properties: ['contest', 'createdAt'] }],
});
