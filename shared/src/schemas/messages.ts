import { z } from 'zod';
import { MESSAGES } from '../messages.js';
import { embeddedRowSchema, idSchema, integerSchema, requiredText, rowIntSchema } from './common.js';

/**
 * Messages to teams (issue 24, DESIGN.md section 6a): a judge or admin writes a short text to one
 * team, a level or everyone of the active contest; each target team's agents show it on the machine's
 * screen and say when it was shown (`entregado`) and closed (`visto`).
 */

/** Longest message (characters). */
export const MESSAGE_MAX_LENGTH = 500;

/** How long a message waits for a machine that is offline when it is sent (minutes): default and most. */
export const MESSAGE_EXPIRY_MINUTES = { default: 15, max: 120 } as const;

/** Who a message goes to: one team (`id` its id), one level (`id` its id), or every team. */
export const MESSAGE_TARGETS = ['equipo', 'nivel', 'todos'] as const;
export type MessageTarget = (typeof MESSAGE_TARGETS)[number];

/** Body of `POST /api/sendMessage`. */
export const sendMessageSchema = z
  .object({
    target: z.enum(MESSAGE_TARGETS, { error: MESSAGES.required }),
    id: idSchema.optional(),
    text: requiredText(MESSAGE_MAX_LENGTH),
    expires_minutes: integerSchema({ min: 1, max: MESSAGE_EXPIRY_MINUTES.max }).optional(),
  })
  .refine((body) => body.target === 'todos' || body.id !== undefined, {
    error: MESSAGES.required,
    path: ['id'],
  });
export type SendMessageBody = z.infer<typeof sendMessageSchema>;

/** One target team's receipt: when its agent showed the message and when the contestant closed it. */
export const messageReceiptSchema = z.object({
  team: embeddedRowSchema('name'),
  delivered_at: z.string().nullable(),
  seen_at: z.string().nullable(),
});

/** A message as `GET /api/messages` lists it, with its receipts. Times are ISO 8601. */
export const messageRowSchema = z.object({
  id: rowIntSchema,
  text: z.string(),
  target: z.enum(MESSAGE_TARGETS),
  /** 'Equipo Los Punteros', 'Nivel Básico', 'Todos los equipos'. */
  target_label: z.string(),
  /** The sender's name (null once the account is deleted). */
  sender: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  teams: rowIntSchema,
  delivered: rowIntSchema,
  seen: rowIntSchema,
  receipts: z.array(messageReceiptSchema),
});
export type MessageRow = z.infer<typeof messageRowSchema>;

/** `data` of `GET /api/messages`: the active contest's 50 newest messages, newest first (none without one). */
export const messagesSchema = z.object({ rows: z.array(messageRowSchema) });
export type Messages = z.infer<typeof messagesSchema>;

/** What an agent is sent (`agent.message`): the text to show and until when it is worth showing. */
export interface AgentMessage {
  id: number;
  text: string;
  /** ISO 8601. */
  expires_at: string;
}

/** The receipts line: 'entregado 29/30, visto 12/30'. */
export const receiptsText = (row: Pick<MessageRow, 'teams' | 'delivered' | 'seen'>): string =>
  `entregado ${row.delivered}/${row.teams}, visto ${row.seen}/${row.teams}`;
