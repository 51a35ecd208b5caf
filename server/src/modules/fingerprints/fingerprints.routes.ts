import type { FastifyInstance } from 'fastify';
import { MESSAGES, processesRoutes } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';
import { addRoute } from '../../lib/route.js';
import { contestOrActive } from '../contests/index.js';
import { processById } from '../processes/index.js';
import {
  confirmFingerprint,
  deleteFingerprint,
  deniedFingerprintRows,
  fingerprintOwner,
} from './process-fingerprints.repository.js';
import { confirmDeniedFingerprint, fingerprintRows } from './fingerprints.service.js';

/** Options of the fingerprints module. */
export interface FingerprintsRoutesOptions {
  /**
   * Teams whose claims make a fingerprint apply to every machine of its contest (`FINGERPRINT_QUORUM`,
   * docs/design.md section 6a).
   */
  fingerprintQuorum: number;
}

/**
 * The fingerprints' calls of `processesRoutes` in the shared route map (admin): `GET
 * /api/processFingerprints/{id}?contests_id`, `POST /api/confirmFingerprint/{id}`, `POST
 * /api/deleteFingerprint/{id}`, `POST /api/confirmDeniedFingerprint/{id}`. The admin's view
 * (docs/design.md section 6a "Fingerprints") of the fingerprints claimed for one process in a contest,
 * and the acts on one. The agents get the change on the push channel (at their next config read
 * without it): a confirmed fingerprint reaches every machine, a removed one leaves every machine and
 * its hash is denied in the contest until an admin confirms it again (docs/design.md section 6a).
 */
export default async function fingerprintsRoutes(
  app: FastifyInstance,
  options: FingerprintsRoutesOptions,
): Promise<void> {
  const quorum = options.fingerprintQuorum;
  addRoute(app, processesRoutes.fingerprints, async (request) => {
    const em = app.orm.em;
    const process = await processById(em, request.params.id);
    if (!process) throw new HttpError(404, MESSAGES.notFound);
    const { contests_id } = request.query;
    const contest = await contestOrActive(em, contests_id);
    if (!contest && contests_id !== undefined) throw new HttpError(404, MESSAGES.contestNotFound);
    return {
      success: true as const,
      data: {
        process,
        contest,
        quorum,
        rows: contest ? await fingerprintRows(em, contest.id, process.id, quorum) : [],
        denied: contest ? await deniedFingerprintRows(em, contest.id) : [],
      },
      message: '',
    };
  });

  addRoute(app, processesRoutes.confirmFingerprint, async (request) => {
    const em = app.orm.em.fork();
    const { id } = request.params;
    const owner = await fingerprintOwner(em, id);
    if (!owner || !(await confirmFingerprint(em, id, request.staff!.id))) {
      throw new HttpError(404, MESSAGES.fingerprintNotFound);
    }
    app.agentChannel.policyChanged(); // a confirmed fingerprint reaches every machine
    const [row] = await fingerprintRows(em, owner.contestId, owner.processId, quorum, id);
    if (!row) throw new HttpError(404, MESSAGES.fingerprintNotFound);
    return { success: true as const, data: row, message: MESSAGES.saved };
  });

  addRoute(app, processesRoutes.deleteFingerprint, async (request) => {
    // Its hash is denied in the contest under every name until an admin confirms it again.
    if (!(await deleteFingerprint(app.orm.em.fork(), request.params.id, request.staff!.id))) {
      throw new HttpError(404, MESSAGES.fingerprintNotFound);
    }
    app.agentChannel.policyChanged(); // and a removed one leaves them
    return { success: true as const, message: MESSAGES.deleted };
  });

  addRoute(app, processesRoutes.confirmDeniedFingerprint, async (request) => {
    if (!(await confirmDeniedFingerprint(app.orm.em.fork(), request.params.id, request.staff!.id))) {
      throw new HttpError(404, MESSAGES.fingerprintNotFound);
    }
    app.agentChannel.policyChanged(); // the hash reaches every machine again
    return { success: true as const, message: MESSAGES.saved };
  });
}
