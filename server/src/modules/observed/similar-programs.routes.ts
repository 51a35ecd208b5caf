import type { FastifyInstance } from 'fastify';
import { MESSAGES, observedRoutes } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';
import { addRoute } from '../../lib/route.js';
import { contestOrActive } from '../contests/index.js';
import { fingerprintIdentity } from '../fingerprints/index.js';
import { observedIdentity, similarPrograms } from './similar-programs.repository.js';

/**
 * `GET /api/similarPrograms` (admin; agent/README.md, «Copias modificadas»): «también coincide con».
 * The file's digest and build-id are those the agents will be sent with its fingerprint (a fingerprint
 * of the contest with that SHA-256 that has them), else those an agent reported with it running; then
 * the other observed programs of the contest within the agents' threshold (`similarPrograms`). An
 * unknown `contests_id` answers 404 `MESSAGES.contestNotFound`; no active contest, nothing found.
 */
export function registerSimilarPrograms(app: FastifyInstance): void {
  addRoute(app, observedRoutes.similar, async (request) => {
    const { sha256, name, contests_id } = request.query;
    const em = app.orm.em.fork();
    const contest = await contestOrActive(em, contests_id);
    if (!contest) {
      if (contests_id !== undefined) throw new HttpError(404, MESSAGES.contestNotFound);
      const data = { tlsh: null, build_id: null, threshold: 0, programs: [], total: 0 };
      return { success: true as const, data, message: '' };
    }
    const known = await fingerprintIdentity(em, contest.id, sha256);
    const seen =
      known.tlsh !== null && known.buildId !== null ? known : await observedIdentity(em, contest.id, sha256);
    const tlsh = known.tlsh ?? seen.tlsh;
    const buildId = known.buildId ?? seen.buildId;
    const found = await similarPrograms(em, contest.id, { sha256, name, tlsh, buildId });
    return { success: true as const, data: { tlsh, build_id: buildId, ...found }, message: '' };
  });
}
