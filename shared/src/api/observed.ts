import { okEnvelope } from '../schemas/api.js';
import {
  blockObservedProcessResultSchema,
  blockObservedProcessSchema,
  observedProcessesQuerySchema,
  observedProcessesSchema,
} from '../schemas/observed.js';
import { similarProgramsQuerySchema, similarProgramsSchema } from '../schemas/similar-programs.js';
import { ADMIN_ACCESS, STAFF_ACCESS } from './access.js';
import { defineRoute } from './route.js';

const tag = 'procesos';

/** "What ran in the lab": the inventory of executables and blocking one from it. */
export const observedRoutes = {
  /**
   * `GET /api/observedProcesses?contests_id&page&page_size&sort&dir&q` (admins and judges): one page
   * of the executables the agents saw start in the active contest (or `contests_id`; 404
   * `MESSAGES.contestNotFound`), grouped by folded name and fingerprint with the number of machines,
   * and `total` (paged, sorted and searched on the server). No active contest:
   * `{contest: null, rows: [], total: 0}`. 422 for a page size or sort it does not offer.
   */
  list: defineRoute({
    method: 'GET',
    path: '/api/observedProcesses',
    access: STAFF_ACCESS,
    tag,
    summary: 'Programas que se ejecutaron en las máquinas del concurso',
    querystring: observedProcessesQuerySchema,
    reply: okEnvelope(observedProcessesSchema),
  }),
  /**
   * `POST /api/blockObservedProcess {name, sha256?}` (admin): adds it to the active contest's blocked
   * set with its fingerprint and pushes `catalog.changed`; 409 `MESSAGES.noActiveContest` with no
   * active contest. Message `MESSAGES.saved`.
   */
  block: defineRoute({
    method: 'POST',
    path: '/api/blockObservedProcess',
    access: ADMIN_ACCESS,
    tag,
    summary: 'Bloquea en el concurso activo un programa observado',
    body: blockObservedProcessSchema,
    reply: okEnvelope(blockObservedProcessResultSchema),
  }),
  /**
   * `GET /api/similarPrograms?sha256&name&contests_id` (admin; agent/README.md, «Copias modificadas»):
   * before a block or a fingerprint's confirmation applies, the other programs of the active contest
   * (or `contests_id`; 404 `MESSAGES.contestNotFound`) that the agents would end with it: the same file
   * under another name, the same ELF build-id, or a similarity digest within `SIMILAR_MAX_DISTANCE` of
   * the file's (`shared/src/similarity.ts`). No active contest: nothing found. Reads only.
   */
  similar: defineRoute({
    method: 'GET',
    path: '/api/similarPrograms',
    access: ADMIN_ACCESS,
    tag,
    summary: 'Otros programas del concurso que también coinciden con un archivo',
    querystring: similarProgramsQuerySchema,
    reply: okEnvelope(similarProgramsSchema),
  }),
} as const;
