import { okEnvelope } from '../schemas/api.js';
import { commonProcessesResultSchema } from '../schemas/catalogs.js';
import { ADMIN_ACCESS } from './access.js';
import { defineRoute } from './route.js';

/**
 * The processes module's calls beyond its catalogue's four (`processesCatalogApi` in catalogs.ts).
 */
export const processesRoutes = {
  /**
   * `POST /api/addCommonProcesses` (admin, no body; beyond SPEC.md section 7, DESIGN.md section 4):
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
} as const;
