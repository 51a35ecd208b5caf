import type { FastifyInstance } from 'fastify';
import { create as contentDisposition } from 'content-disposition';
import { EVIDENCE_ZIP_MIME, MESSAGES, evidenceRoutes } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';
import { addRoute } from '../../lib/route.js';
import { buildEvidenceExport } from './evidence-zip.js';

/**
 * Exports built at once by one server process: each holds its PDF (rows and reduced images) in memory
 * while it streams, so a few judges clicking together cannot add up without bound. Past it, 429.
 */
const EVIDENCE_EXPORTS_AT_ONCE = 2;

/** Options of the evidence routes: where the capture images live. */
export interface EvidenceRoutesOptions {
  dataDir: string;
}

/**
 * «Exportar evidencia» (README.md): `GET /api/teamEvidence/:teamId`, a team's evidence as a ZIP for
 * judges and admins, logged in the server's log with who exported which team.
 */
export default async function evidenceRoutesModule(
  app: FastifyInstance,
  options: EvidenceRoutesOptions,
): Promise<void> {
  let running = 0;

  addRoute(app, evidenceRoutes.export, async (request, reply) => {
    if (running >= EVIDENCE_EXPORTS_AT_ONCE) throw new HttpError(429, MESSAGES.tooManyRequests);
    running += 1;
    let released = false;
    const release = () => {
      if (!released) running -= 1;
      released = true;
    };
    const teamId = request.params.teamId;
    const userId = request.staff!.id;
    try {
      const built = await buildEvidenceExport(app.orm.em.fork(), {
        dataDir: options.dataDir,
        teamId,
        userId,
      });
      if (!built) throw new HttpError(404, MESSAGES.notFound);
      built.stream.once('close', release);
      built.stream.once('error', (error) => {
        release();
        request.log.error({ err: error, teamId }, 'evidencia: la descarga se cortó');
      });
      request.log.info({ teamId, userId, contestId: built.contestId }, 'evidencia exportada');
      return reply
        .type(EVIDENCE_ZIP_MIME)
        .header('content-disposition', contentDisposition(built.fileName))
        .header('cache-control', 'no-store')
        .send(built.stream);
    } catch (error) {
      release();
      throw error;
    }
  });
}
