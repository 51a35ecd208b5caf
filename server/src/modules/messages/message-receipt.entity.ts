import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Team } from '../teams/index.js';
import { Message } from './message.entity.js';

/**
 * `message_receipts` (issue 24): one target team of a message, with when one of its agents showed it
 * (`entregado`) and when the contestant closed it (`visto`); the first of each is kept.
 */
export const MessageReceipt = defineEntity({
  name: 'MessageReceipt',
  tableName: 'message_receipts',
  properties: {
    id: p.integer().primary().autoincrement(),
    message: () => p.manyToOne(Message).fieldName('messages_id').deleteRule('cascade'),
    team: () => p.manyToOne(Team).fieldName('teams_id').deleteRule('cascade'),
    deliveredAt: p.datetime(3).nullable().fieldName('delivered_at'),
    seenAt: p.datetime(3).nullable().fieldName('seen_at'),
  },
  uniques: [{ name: 'message_receipts_message_team_unique', properties: ['message', 'team'] }],
});
export type IMessageReceipt = InferEntity<typeof MessageReceipt>;
