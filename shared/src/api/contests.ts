import { z } from 'zod';
import { idParamsSchema, idSchema } from '../schemas/common.js';
import { okEnvelope } from '../schemas/api.js';
import {
  blockedProcessesInputSchema,
  contestProcessRowSchema,
  contestRowSchema,
} from '../schemas/catalogs.js';
import { permittedProcessesInputSchema } from '../schemas/fingerprints.js';
import { allowedSitesInputSchema } from '../schemas/network.js';
import { networkSitesInfoInputSchema, networkSitesInfoSchema } from '../schemas/network-sites.js';
import { ADMIN_ACCESS, STAFF_ACCESS } from './access.js';
import { defineRoute } from './route.js';

/**
 * The contests module's calls beyond a catalogue's four (those are `contestsCatalogApi` in
 * catalogs.ts): a contest's blocked processes (docs/spec.md section 7), which every agent of the contest
 * kills (docs/design.md section 6).
 */
export const contestsRoutes = {
  /** `GET /api/processContest/{contestId}`: the contest's blocked processes by name (`processes.name`). 404 unknown contest. */
  blockedProcesses: defineRoute({
    method: 'GET',
    path: '/api/processContest/:contestId',
    access: STAFF_ACCESS,
    tag: 'concursos',
    summary: 'Procesos bloqueados de un concurso',
    params: z.object({ contestId: idSchema }),
    reply: okEnvelope(z.array(contestProcessRowSchema)),
  }),
  /**
   * `POST /api/activateContest/{id}` (admin, docs/design.md section 4): makes contest `id` the active one
   * (the only one). Boards, the projector and agents follow it: every screen gets `board.reset`, agents
   * pick up its blocked set at their next config refresh. Answers the contest's row. 404 unknown contest.
   */
  activate: defineRoute({
    method: 'POST',
    path: '/api/activateContest/:id',
    access: ADMIN_ACCESS,
    tag: 'concursos',
    summary: 'Activa un concurso',
    params: idParamsSchema,
    reply: okEnvelope(contestRowSchema),
  }),
  /**
   * `POST /api/createBlockedProcessForContest {contests_id, processes_id[]}` (admin): replaces the
   * contest's blocked set and answers it. 404 unknown contest; 422 on `processes_id` when one no longer
   * exists.
   */
  replaceBlockedProcesses: defineRoute({
    method: 'POST',
    path: '/api/createBlockedProcessForContest',
    access: ADMIN_ACCESS,
    tag: 'concursos',
    summary: 'Asigna los procesos bloqueados de un concurso',
    body: blockedProcessesInputSchema,
    reply: okEnvelope(z.array(contestProcessRowSchema)),
  }),
  /**
   * `POST /api/updateAllowedSites {contests_id, allowed_sites}` (admin, docs/design.md section
   * 6a): replaces the contest's allowed sites («Sitios permitidos»), bumping its `network_version` when
   * the list changes (kept in the contest's log); the agents of the active contest get the new policy
   * on the push channel. Answers the contest's row. 404 unknown contest; 422 on `allowed_sites.<i>`.
   */
  updateAllowedSites: defineRoute({
    method: 'POST',
    path: '/api/updateAllowedSites',
    access: ADMIN_ACCESS,
    tag: 'concursos',
    summary: 'Cambia los sitios permitidos de un concurso',
    body: allowedSitesInputSchema,
    reply: okEnvelope(contestRowSchema),
  }),
  /**
   * `POST /api/networkSitesInfo {hosts}` (admin): what each allowed host name means on the lab
   * machines while «Sitios permitidos» is edited: its addresses now (the server's resolver, at most
   * `NETWORK_SITES_LOOKUP_TIMEOUT_MS` each; none when it did not answer) and whether they are a CDN's
   * shared ones (`CDN_RANGES`). Changes nothing. 422 on `hosts` beyond `NETWORK_MAX_DESTINATIONS` or
   * an entry that is no host name.
   */
  networkSitesInfo: defineRoute({
    method: 'POST',
    path: '/api/networkSitesInfo',
    access: ADMIN_ACCESS,
    tag: 'concursos',
    summary: 'Direcciones de los sitios permitidos y si son compartidas',
    body: networkSitesInfoInputSchema,
    reply: okEnvelope(networkSitesInfoSchema),
  }),
  /**
   * `GET /api/permittedProcesses/{contestId}` (admin; docs/design.md section 6a "Fingerprints"): the
   * contest's «Programas permitidos» by process name. 404 unknown contest.
   */
  permittedProcesses: defineRoute({
    method: 'GET',
    path: '/api/permittedProcesses/:contestId',
    access: ADMIN_ACCESS,
    tag: 'concursos',
    summary: 'Programas permitidos de un concurso',
    params: z.object({ contestId: idSchema }),
    reply: okEnvelope(z.array(contestProcessRowSchema)),
  }),
  /**
   * `POST /api/updatePermittedProcesses {contests_id, processes_id[]}` (admin): replaces the contest's
   * «Programas permitidos» and answers them; the agents' policies are recomputed (a fingerprint that
   * matches a permitted program's known file applies to no machine). 404 unknown contest; 422 on
   * `processes_id` when a process no longer exists or is blocked in the contest
   * (`permittedBlockedConflict`).
   */
  updatePermittedProcesses: defineRoute({
    method: 'POST',
    path: '/api/updatePermittedProcesses',
    access: ADMIN_ACCESS,
    tag: 'concursos',
    summary: 'Asigna los programas permitidos de un concurso',
    body: permittedProcessesInputSchema,
    reply: okEnvelope(z.array(contestProcessRowSchema)),
  }),
} as const;
