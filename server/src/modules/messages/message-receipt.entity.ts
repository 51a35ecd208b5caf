import { defineEntity, p } from '@mikro-orm/core';
import { Team } from '../teams/index.js';
import { Message } from './message.entity.js';

/**
 * `message_receipts`: one target team of a message, with when one of its agents showed it
 * (`entregado`) and when the contestant closed it (`visto`); the first of each is kept. While it
 * was not shown: the last failure a machine of the team reported (`falló`: when, why, which machine).
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
    /** The last time a machine of the team said it could not show the message, why, and which machine. */
    failedAt: p.datetime(3).nullable().fieldName('failed_at'),
    failure: p.string().length(120).nullable(),
    failedOn: p.string().length(255).nullable().fieldName('failed_on'),
  },
  uniques: [{ name: 'message_receipts_message_team_unique', properties: ['message', 'team'] }],
});
