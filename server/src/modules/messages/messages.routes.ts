import type { FastifyInstance } from 'fastify';
import { MESSAGES, messagesRoutes as api } from '@concurso/shared';
import { transaction } from '../../db/transaction.js';
import { HttpError } from '../../lib/http-error.js';
import { addRoute } from '../../lib/route.js';
import { activeContest } from '../contests/index.js';
import {
  createMessage,
  messageRows,
  pendingMessages,
  recordReceipts,
  targetTeams,
} from './messages.repository.js';
import { ReceiptBatcher } from './receipt-batcher.js';

/** At most one `catalog.changed` of messages in this many ms while receipts pour in (ms). */
const RECEIPTS_ANNOUNCE_MS = 250;

/**
 * Messages to teams (docs/design.md section 6a): `POST /api/sendMessage` stores the message with
 * a receipt per target team of the active contest and pushes it to their connected agents
 * (`app.agentChannel.sendMessage`); an agent connecting later gets what it has not shown and has not
 * expired; its `entregado` / `visto` / `falló` (could not show it: why, on which machine; sent again
 * on its next connection while not shown) update the receipts, and the staff's screens refetch
 * (`catalog.changed` of `messages`). `GET /api/messages` lists them with their receipts.
 */
export default async function messagesModule(app: FastifyInstance): Promise<void> {
  let announce: NodeJS.Timeout | null = null;
  const receiptsChanged = () => {
    announce ??= setTimeout(() => {
      announce = null;
      app.board.catalogChanged('messages');
    }, RECEIPTS_ANNOUNCE_MS);
  };
  // Receipts of every agent socket go to the database in batches (receipt-batcher.ts).
  const receipts = new ReceiptBatcher(
    (batch) => recordReceipts(app.orm.em.fork(), batch),
    receiptsChanged,
    (err) => app.log.warn({ err }, 'message receipts not recorded'),
    (count) => app.log.warn({ count }, 'message receipts dropped: too many waiting'),
  );
  app.addHook('preClose', () => receipts.drained());
  app.addHook('onClose', async () => {
    if (announce) clearTimeout(announce);
  });

  app.agentChannel.useMessages({
    pending: (teamId) => pendingMessages(app.orm.em.fork(), teamId),
    receipt: (teamId, messageId, kind) => receipts.add({ teamId, messageId, kind }),
    failed: (teamId, messageId, reason, hostname) =>
      receipts.add({ teamId, messageId, kind: 'falló', reason, hostname }),
  });

  addRoute(app, api.send, async (request) => {
    const body = request.body;
    const { row, teamIds } = await transaction(app.orm.em, async (em) => {
      const contest = await activeContest(em);
      if (!contest) throw new HttpError(409, MESSAGES.noActiveContest);
      const target = await targetTeams(em, contest.id, body);
      if (!target) {
        throw new HttpError(422, MESSAGES.validation, {
          id: [
            body.target === 'todos'
              ? 'El concurso activo no tiene equipos'
              : 'No es un equipo o nivel del concurso activo',
          ],
        });
      }
      const id = await createMessage(em, {
        contestId: contest.id,
        userId: request.staff!.id,
        target: body.target,
        label: target.label,
        text: body.text,
        expiresMinutes: body.expires_minutes,
        teamIds: target.teams.map((team) => team.id),
      });
      const [created] = await messageRows(em, contest.id, id);
      return { row: created!, teamIds: target.teams.map((team) => team.id) };
    });
    app.agentChannel.sendMessage(teamIds, { id: row.id, text: row.text, expires_at: row.expires_at });
    app.board.catalogChanged('messages');
    return { success: true as const, data: row, message: 'Mensaje enviado.' };
  });

  addRoute(app, api.list, async () => {
    const contest = await activeContest(app.orm.em);
    return {
      success: true as const,
      message: '',
      data: { rows: contest ? await messageRows(app.orm.em, contest.id) : [] },
    };
  });
}
