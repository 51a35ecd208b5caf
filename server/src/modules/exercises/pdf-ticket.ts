import type { FastifyInstance } from 'fastify';
import type { EntityManager } from '@mikro-orm/mysql';
import { z } from 'zod';
import { STAFF_ACCESS } from '@concurso/shared';
import type { JwtClaims, StaffPrincipal } from '../../plugins/access.js';
import { activeSessionType } from '../auth/index.js';

/** How long a 'Ver PDF' ticket opens its PDF (s): the tab uses it at once; a reload later asks again. */
export const PDF_TICKET_TTL_S = 5 * 60;

/** The ticket's audience: tells it from anything else the server signs. */
const AUDIENCE = 'exercise-pdf';

/**
 * A ticket's claims: the exercise it opens and the session that asked for it (user, token id and
 * session version), nested so a ticket never has the shape of a session token (whose `sub`, `typ`,
 * `jti` and `ver` are top-level claims, session.ts): it cannot be used as a bearer token.
 */
const ticketSchema = z.object({
  aud: z.literal(AUDIENCE),
  pdf: z.number().int().positive(),
  ses: z.object({ u: z.number().int().positive(), j: z.string().min(1), v: z.number().int().nonnegative() }),
  exp: z.number().int().positive(),
});

/**
 * Signs the ticket of `namedPdf` ('Ver PDF'): a JWT with the server's secret that opens
 * exercise `exerciseId`'s PDF for {@link PDF_TICKET_TTL_S} seconds, never past the session's own
 * expiry, and only while that session lasts (checked again on use).
 */
export function signPdfTicket(app: FastifyInstance, session: StaffPrincipal, exerciseId: number): string {
  const now = Math.floor(Date.now() / 1000);
  const exp = Math.min(now + PDF_TICKET_TTL_S, session.exp);
  const claims = {
    aud: AUDIENCE,
    pdf: exerciseId,
    ses: { u: session.id, j: session.jti, v: session.version },
    exp,
  };
  // The plugin types its payload as a session's claims; a ticket is deliberately not one.
  return app.jwt.sign(claims as unknown as JwtClaims);
}

/**
 * Whether `ticket` opens exercise `exerciseId`'s PDF now: signed by this server, not expired, made for
 * that exercise, and its session still open (not logged out, same password and role, user not
 * deleted) for a staff member. One database round trip, only for a well-formed ticket.
 */
export async function pdfTicketOpens(
  app: FastifyInstance,
  em: EntityManager,
  ticket: string | undefined,
  exerciseId: number,
): Promise<boolean> {
  if (!ticket) return false;
  let payload: unknown;
  try {
    payload = app.jwt.verify(ticket);
  } catch {
    return false;
  }
  const claims = ticketSchema.safeParse(payload);
  if (!claims.success || claims.data.pdf !== exerciseId) return false;
  const { u, j, v } = claims.data.ses;
  const type = await activeSessionType(em, { userId: u, jti: j, version: v, exp: claims.data.exp });
  return type !== null && (STAFF_ACCESS as readonly number[]).includes(type);
}
