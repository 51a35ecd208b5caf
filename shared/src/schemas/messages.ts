import { z } from 'zod';
import { MESSAGES } from '../messages.js';
import { embeddedRowSchema, idSchema, integerSchema, requiredText, rowIntSchema } from './common.js';

/**
 * Messages to teams (docs/design.md section 6a): a judge or admin writes a short text to one
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

/**
 * One target team's receipt: when its agent showed the message and when the contestant closed it;
 * while it was not shown, the last time a machine of the team could not show it (`failed_at`), why
 * (`failure`, the agent's short Spanish phrase, e.g. «sin sesión gráfica») and on which machine
 * (`failed_on`, its host name; null when the agent did not say).
 */
export const messageReceiptSchema = z.object({
  team: embeddedRowSchema('name'),
  delivered_at: z.string().nullable(),
  seen_at: z.string().nullable(),
  failed_at: z.string().nullable().default(null),
  failure: z.string().nullable().default(null),
  failed_on: z.string().nullable().default(null),
});
export type MessageReceiptRow = z.infer<typeof messageReceiptSchema>;

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
  /** Teams none of whose machines showed it and one of whose said it could not (`falló`). */
  failed: rowIntSchema.default(0),
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

/** Longest reason an agent gives for a message it could not show (characters); longer is cut. */
export const MESSAGE_FAILURE_MAX_LENGTH = 120;

/**
 * When an agent tries again to show a message it could not show (ms after each failure, in order):
 * at most this many retries, and none once the message expired. A failure is told to the server each
 * time (`agent.message.failed`), so the retries are bounded to stay within the channel's event rate.
 */
export const MESSAGE_SHOW_RETRY_MS = [2_000, 5_000, 15_000, 30_000, 60_000] as const;

/**
 * `agent.message.failed` (an agent socket's event): message `id` could not be shown on the machine
 * `hostname` (at most 255 characters; null when unknown) because of `reason` (one short Spanish
 * phrase, at most `MESSAGE_FAILURE_MAX_LENGTH` characters).
 */
export const agentMessageFailureSchema = z.object({
  id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  reason: z.string().trim().min(1).max(MESSAGE_FAILURE_MAX_LENGTH),
  hostname: z.string().trim().max(255).nullable().default(null),
});
export type AgentMessageFailure = z.input<typeof agentMessageFailureSchema>;

/**
 * The receipts line: 'entregado 29/30, visto 12/30', and ', falló 1' when teams could not be shown it.
 */
export const receiptsText = (
  row: Pick<MessageRow, 'teams' | 'delivered' | 'seen'> & { failed?: number },
): string =>
  `entregado ${row.delivered}/${row.teams}, visto ${row.seen}/${row.teams}` +
  (row.failed ? `, falló ${row.failed}` : '');

/** What became of a message at one team: closed, shown, could not be shown (and not shown since), not yet. */
export type ReceiptState = 'visto' | 'entregado' | 'falló' | 'pendiente';

/** The state of one team's receipt: `visto` over `entregado` over `falló` over `pendiente`. */
export function receiptState(
  receipt: Pick<MessageReceiptRow, 'delivered_at' | 'seen_at' | 'failed_at'>,
): ReceiptState {
  if (receipt.seen_at) return 'visto';
  if (receipt.delivered_at) return 'entregado';
  return receipt.failed_at ? 'falló' : 'pendiente';
}

/**
 * What the sender reads of a message a team's machine could not show: 'no se pudo mostrar en Los
 * Punteros (lab-05): sin sesión gráfica' (the machine in parentheses when the agent named it).
 */
export function messageFailureText(team: string, hostname: string | null, reason: string): string {
  return `no se pudo mostrar en ${team}${hostname ? ` (${hostname})` : ''}: ${reason}`;
}
