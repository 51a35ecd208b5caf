import { z } from 'zod';
import { okEnvelope } from '../schemas/api.js';
import { commonProcessesResultSchema } from '../schemas/catalogs.js';
import { idParamsSchema } from '../schemas/common.js';
import {
  processFingerprintRowSchema,
  processFingerprintsQuerySchema,
  processFingerprintsSchema,
} from '../schemas/fingerprints.js';
import { ADMIN_ACCESS } from './access.js';
import { deletedReplySchema } from './catalog.js';
import { defineRoute } from './route.js';

/**
 * The processes module's calls beyond its catalogue's four (`processesCatalogApi` in catalogs.ts).
 */
export const processesRoutes = {
  /**
   * `POST /api/addCommonProcesses` (admin, no body; beyond docs/spec.md section 7, docs/design.md section 4):
   * adds the ready catalogue of commonly forbidden executables (browsers, chat, remote desktop, screen
   * recorders, AI assistants), skipping those present; answers `{ added, skipped }`.
   */
  addCommon: defineRoute({
    method: 'POST',
    path: '/api/addCommonProcesses',
    access: ADMIN_ACCESS,
    tag: 'procesos',
    summary: 'Agrega el catálogo común de ejecutables prohibidos',
    reply: okEnvelope(commonProcessesResultSchema),
  }),
  /**
   * `GET /api/processFingerprints/{id}?contests_id` (admin; docs/design.md section 6a): every
   * fingerprint claimed for process `id` in the active contest (or `contests_id`), with its first and
   * last claiming teams, how many teams claimed it and whether an admin confirmed it. 404
   * `MESSAGES.notFound` for an unknown process, `MESSAGES.contestNotFound` for an unknown contest.
   */
  fingerprints: defineRoute({
    method: 'GET',
    path: '/api/processFingerprints/:id',
    access: ADMIN_ACCESS,
    tag: 'procesos',
    summary: 'Huellas reportadas de un proceso bloqueado',
    params: idParamsSchema,
    querystring: processFingerprintsQuerySchema,
    reply: okEnvelope(processFingerprintsSchema),
  }),
  /**
   * `POST /api/confirmFingerprint/{id}` (admin): the fingerprint applies to every machine of its contest
   * from the agents' next config. Idempotent; 404 `MESSAGES.fingerprintNotFound`. Message `saved`.
   */
  confirmFingerprint: defineRoute({
    method: 'POST',
    path: '/api/confirmFingerprint/:id',
    access: ADMIN_ACCESS,
    tag: 'procesos',
    summary: 'Confirma una huella para todas las máquinas del concurso',
    params: idParamsSchema,
    reply: okEnvelope(processFingerprintRowSchema),
  }),
  /**
   * `POST /api/deleteFingerprint/{id}` (admin): removes the fingerprint and its claims, and denies its
   * hash in the contest under every process name (docs/design.md section 6a): every fingerprint of that hash
   * leaves every machine, and claims of it are ignored until an admin confirms it again
   * (`confirmDeniedFingerprint`). 404 `MESSAGES.fingerprintNotFound`. Message `deleted`.
   */
  deleteFingerprint: defineRoute({
    method: 'POST',
    path: '/api/deleteFingerprint/:id',
    access: ADMIN_ACCESS,
    tag: 'procesos',
    summary: 'Elimina una huella reportada',
    params: idParamsSchema,
    reply: deletedReplySchema,
  }),
  /**
   * `POST /api/confirmDeniedFingerprint/{id}` (admin; docs/design.md section 6a): lifts the denial `id` of a
   * hash an admin removed; the hash becomes a confirmed fingerprint of the process it was removed from,
   * so it applies to every machine of the contest again. 404 `MESSAGES.fingerprintNotFound`. Message
   * `saved`.
   */
  confirmDeniedFingerprint: defineRoute({
    method: 'POST',
    path: '/api/confirmDeniedFingerprint/:id',
    access: ADMIN_ACCESS,
    tag: 'procesos',
    summary: 'Confirma de nuevo una huella denegada',
    params: idParamsSchema,
    reply: z.object({ success: z.literal(true), message: z.string() }),
  }),
} as const;
