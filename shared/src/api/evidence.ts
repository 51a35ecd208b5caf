import { z } from 'zod';
import { teamIdParamsSchema } from './teams.js';
import { STAFF_ACCESS } from './access.js';
import { defineRoute } from './route.js';

/** The ZIP's media type, as the route answers it and the web asks for it. */
export const EVIDENCE_ZIP_MIME = 'application/zip';

/**
 * A team's evidence for a committee (server/src/modules/evidence/README.md): judges and admins only,
 * never an agent key nor the public.
 */
export const evidenceRoutes = {
  /**
   * `GET /api/teamEvidence/{teamId}` («Exportar evidencia»): one ZIP, streamed, named
   * `evidencia-<equipo>-<AAAA-MM-DD>.zip` by its Content-Disposition: `evidencia.pdf` (the team, its
   * members, attempts with their captures, status changes, agent events, messages, the chain's head),
   * `capturas/*.jpg`, `cadena.txt` (the chain's head and its verification at export time) and
   * `manifiesto.sha256` (`sha256sum -c` checks every other file). 404 for an unknown team.
   */
  export: defineRoute({
    method: 'GET',
    path: '/api/teamEvidence/:teamId',
    access: STAFF_ACCESS,
    tag: 'tablero',
    summary: 'Evidencia de un equipo en un ZIP: PDF, capturas y manifiesto SHA-256',
    params: teamIdParamsSchema,
    reply: z.unknown().meta({ description: 'El archivo ZIP (application/zip).' }),
  }),
} as const;
