import type { EntityManager } from '@mikro-orm/mysql';
import {
  MESSAGE_EXPIRY_MINUTES,
  type AgentMessage,
  type MessageRow,
  type MessageTarget,
  type SendMessageBody,
} from '@concurso/shared';
import { Team } from '../teams/index.js';
import { User } from '../users/index.js';
import { Contest } from '../contests/index.js';
import { MessageReceipt } from './message-receipt.entity.js';
import { Message } from './message.entity.js';
import { appendRowToChain } from '../chain/index.js';

/*
 * The messages module's reads and writes: `messages` and `message_receipts`, through the
 * EntityManager; every function takes it first and runs in the caller's transaction.
 */

/** The teams of contest `contestId` a message to `body.target` goes to, and how the target reads. */
export async function targetTeams(
  em: EntityManager,
  contestId: number,
  body: Pick<SendMessageBody, 'target' | 'id'>,
): Promise<{ teams: Array<{ id: number; name: string }>; label: string } | null> {
  const where =
    body.target === 'equipo'
      ? { contest: contestId, id: body.id! }
      : body.target === 'nivel'
        ? { contest: contestId, level: body.id! }
        : { contest: contestId };
  const teams = await em.find(Team, where, {
    fields: ['name', 'level.level'],
    orderBy: { name: 'asc', id: 'asc' },
  });
  if (teams.length === 0) return null;
  // The level's name as the catalogue has it now (levels can be renamed or added).
  const label =
    body.target === 'equipo'
      ? `Equipo ${teams[0]!.name}`
      : body.target === 'nivel'
        ? `Nivel ${teams[0]!.level.level}`
        : 'Todos los equipos';
  return { teams: teams.map((team) => ({ id: team.id, name: team.name })), label };
}

/**
 * Stores a message to `teamIds` of contest `contestId` from user `userId`, with a receipt per team, and
 * chains it to the contest's log (modules/chain/README.md; its receipts change as agents answer and
 * are not chained); answers its id.
 */
export async function createMessage(
  em: EntityManager,
  input: {
    contestId: number;
    userId: number;
    target: MessageTarget;
    label: string;
    text: string;
    expiresMinutes?: number;
    teamIds: readonly number[];
  },
  now = new Date(),
): Promise<number> {
  const message = em.create(Message, {
    contest: em.getReference(Contest, input.contestId),
    user: em.getReference(User, input.userId),
    target: input.target,
    targetLabel: input.label,
    text: input.text,
    createdAt: now,
    expiresAt: new Date(now.getTime() + (input.expiresMinutes ?? MESSAGE_EXPIRY_MINUTES.default) * 60_000),
  });
  for (const teamId of input.teamIds) {
    em.create(MessageReceipt, { message, team: em.getReference(Team, teamId) });
  }
  await em.flush();
  await appendRowToChain(em, 'mensaje', message.id);
  return message.id;
}

/** Messages a list answers at most: each carries a receipt per team (500 teams × 50 = 25,000 rows). */
const MESSAGES_LIST_LIMIT = 50;

/** Messages of contest `contestId` (or just `onlyId`) with their receipts, newest first (at most `MESSAGES_LIST_LIMIT`). */
export async function messageRows(
  em: EntityManager,
  contestId: number,
  onlyId?: number,
): Promise<MessageRow[]> {
  const messages = await em.find(
    Message,
    { contest: contestId, ...(onlyId === undefined ? {} : { id: onlyId }) },
    { populate: ['user'], orderBy: { createdAt: 'desc', id: 'desc' }, limit: MESSAGES_LIST_LIMIT },
  );
  if (messages.length === 0) return [];
  const receipts = await em.find(
    MessageReceipt,
    { message: { $in: messages.map((m) => m.id) } },
    { populate: ['team'], orderBy: { team: { name: 'asc' }, id: 'asc' } },
  );
  // Grouped once: a message to every team of a big contest has hundreds of receipts.
  const byMessage = new Map<number, typeof receipts>();
  for (const receipt of receipts) {
    const list = byMessage.get(receipt.message.id) ?? [];
    list.push(receipt);
    byMessage.set(receipt.message.id, list);
  }
  return messages.map((message) => {
    const mine = byMessage.get(message.id) ?? [];
    return {
      id: message.id,
      text: message.text,
      target: message.target as MessageTarget,
      target_label: message.targetLabel,
      sender: message.user?.name ?? null,
      created_at: message.createdAt.toISOString(),
      expires_at: message.expiresAt.toISOString(),
      teams: mine.length,
      delivered: mine.filter((r) => r.deliveredAt).length,
      seen: mine.filter((r) => r.seenAt).length,
      failed: mine.filter((r) => !r.deliveredAt && r.failedAt).length,
      receipts: mine.map((r) => ({
        team: { id: r.team.id, name: r.team.name },
        delivered_at: r.deliveredAt?.toISOString() ?? null,
        seen_at: r.seenAt?.toISOString() ?? null,
        failed_at: r.failedAt?.toISOString() ?? null,
        failure: r.failure ?? null,
        failed_on: r.failedOn ?? null,
      })),
    };
  });
}

/**
 * The messages of team `teamId` that have not expired at `now` and that its contestants have not closed
 * yet: `show`, those no agent of it has shown (oldest first), and `shown`, the ids of those shown but
 * not closed (a machine whose socket reconnected still says `visto` of them).
 */
export async function pendingMessages(
  em: EntityManager,
  teamId: number,
  now = new Date(),
): Promise<{ show: AgentMessage[]; shown: number[] }> {
  const receipts = await em.find(
    MessageReceipt,
    { team: teamId, seenAt: null, message: { expiresAt: { $gt: now } } },
    { populate: ['message'], orderBy: { message: { createdAt: 'asc' } } },
  );
  return {
    show: receipts
      .filter((receipt) => !receipt.deliveredAt)
      .map(({ message }) => ({
        id: message.id,
        text: message.text,
        expires_at: message.expiresAt.toISOString(),
      })),
    shown: receipts.filter((receipt) => receipt.deliveredAt).map(({ message }) => message.id),
  };
}

/**
 * One receipt to record: team `teamId`'s agent showed (`entregado`) or its contestant closed (`visto`)
 * a message, or one of its machines (`hostname`, null when unknown) could not show it (`falló`, with
 * the agent's `reason`).
 */
export type Receipt =
  | { teamId: number; messageId: number; kind: 'entregado' | 'visto' }
  | { teamId: number; messageId: number; kind: 'falló'; reason: string; hostname: string | null };

/**
 * Records `receipts` (at most a few hundred: one statement's parameters) in at most two UPDATEs:
 * `visto` implies shown, and the first time of each is kept, so a receipt of a message already
 * receipted, or of a message that is not that team's, changes nothing; a `falló` is kept (the last
 * one: when, why, which machine) only while no machine of the team showed the message. Answers how
 * many receipts changed.
 */
export async function recordReceipts(
  em: EntityManager,
  receipts: readonly Receipt[],
  now = new Date(),
): Promise<number> {
  const shown = receipts.filter((r) => r.kind !== 'falló');
  const failed = receipts.filter((r) => r.kind === 'falló');
  let changed = 0;
  if (shown.length > 0) {
    const rows = shown.map(() => 'select ? as m, ? as t, ? as seen').join(' union all ');
    const result = await em.execute<{ affectedRows: number }>(
      `update message_receipts r join (${rows}) x on r.messages_id = x.m and r.teams_id = x.t ` +
        'set r.delivered_at = coalesce(r.delivered_at, ?), ' +
        'r.seen_at = if(x.seen, coalesce(r.seen_at, ?), r.seen_at) ' +
        'where r.delivered_at is null or (x.seen and r.seen_at is null)',
      [...shown.flatMap((r) => [r.messageId, r.teamId, r.kind === 'visto' ? 1 : 0]), now, now],
      'run',
    );
    changed += result.affectedRows;
  }
  if (failed.length > 0) {
    const rows = failed.map(() => 'select ? as m, ? as t, ? as why, ? as host').join(' union all ');
    const result = await em.execute<{ affectedRows: number }>(
      `update message_receipts r join (${rows}) x on r.messages_id = x.m and r.teams_id = x.t ` +
        'set r.failed_at = ?, r.failure = x.why, r.failed_on = x.host where r.delivered_at is null',
      [
        ...failed.flatMap((r) => (r.kind === 'falló' ? [r.messageId, r.teamId, r.reason, r.hostname] : [])),
        now,
      ],
      'run',
    );
    changed += result.affectedRows;
  }
  return changed;
}
